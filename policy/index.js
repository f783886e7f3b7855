"use strict";
// The policy pack's program: the compiled pack of the installed package (provider/policy/pack.ts).
require("../dist/provider/policy/pack.js").servePack();
