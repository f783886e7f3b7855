import { render } from "preact";
import { useState } from "preact/hooks";
import { AuditPanel } from "./audit-panel";
import { FaultsPanel } from "./faults-panel";
import { useLive } from "./live";
import { CmasshPanel, CycleCloudPanel, PelotonPanel, SenlinPanel, VclusterPanel } from "./platforms";
import type { ConsoleState } from "./types";

const TABS = [
  { id: "cmassh", label: "cma-ssh", panel: CmasshPanel },
  { id: "cyclecloud", label: "CycleCloud", panel: CycleCloudPanel },
  { id: "senlin", label: "Senlin", panel: SenlinPanel },
  { id: "peloton", label: "Peloton", panel: PelotonPanel },
  { id: "vcluster", label: "vcluster", panel: VclusterPanel },
  { id: "audit", label: "Audit log", panel: undefined },
  { id: "faults", label: "Faults", panel: FaultsPanel },
] as const;

type TabId = (typeof TABS)[number]["id"];

function initialTab(): TabId {
  const hash = location.hash.slice(1);
  return (TABS.find((t) => t.id === hash)?.id ?? "cmassh") as TabId;
}

function App() {
  const live = useLive();
  const [tab, setTab] = useState<TabId>(initialTab);
  const choose = (id: TabId) => {
    setTab(id);
    history.replaceState(null, "", `#${id}`);
  };
  const active = TABS.find((t) => t.id === tab)!;
  return (
    <>
      <header>
        <h1>clusterform-local</h1>
        <p class={live.connected ? "live on" : "live off"} role="status">
          {live.connected ? `live · ${live.state?.now.replace("T", " ").slice(0, 19) ?? ""} UTC` : "not connected: retrying"}
        </p>
      </header>
      <nav>
        <div role="tablist" aria-label="Platforms and tools">
          {TABS.map((t) => (
            <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={t.id === tab} aria-controls="panel" onClick={() => choose(t.id)}>
              {t.label}
            </button>
          ))}
        </div>
      </nav>
      <main>
        <div id="panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
          {!live.state ? <p>Connecting to the plane…</p> : active.panel ? <active.panel state={live.state as ConsoleState} /> : <AuditPanel audit={live.audit} />}
        </div>
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
