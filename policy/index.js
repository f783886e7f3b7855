"use strict";
// The policy pack's program: the compiled pack of the installed package (provider/cli/policy/pack.ts).
require("../dist/provider/cli/policy/pack.js").servePack();
