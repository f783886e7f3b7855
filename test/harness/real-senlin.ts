import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { freePort, waitForPort } from "../../emulator/kubernetes/free-port";
import { SupervisedProcess } from "../../emulator/kubernetes/supervised-process";

const run = promisify(execFile);

/**
 * The real OpenStack Senlin 14.0.0 of Debian 12, on this machine, with nodes that become ACTIVE
 * without Nova: Senlin's `openstack_test` cloud backend (its own fake drivers), a real Keystone 22
 * (SQLite, fernet, under uwsgi), RabbitMQ and MariaDB, each started here on its own ports with its
 * own data, bound to 127.0.0.1 (the facts that made it work: shared/senlin-real-notes.md). The
 * set-up installs the packages (scripts/setup/senlin-real.sh); nothing of the system's is started
 * or configured.
 */
export interface RealSenlin {
  /** Keystone's identity endpoint, `http://127.0.0.1:<port>/v3`. */
  keystoneUrl: string;
  /** Senlin's root, `http://127.0.0.1:<port>` (routes under `/v1`). */
  senlinUrl: string;
  /** The admin user the tests act as (project `admin`, domain `Default`). */
  user: string;
  password: string;
  project: string;
  /** Stops every daemon and deletes the data folder. */
  stop(): Promise<void>;
}

/** The admin credentials of the real Keystone (test-only, local). */
const ADMIN = { user: "admin", password: "admin-pass", project: "admin" };
const SERVICE = { user: "senlin", password: "senlin-pass", project: "service" };

/** How long one daemon may take to answer after its start on a busy 2-core machine. */
const START_TIMEOUT_MS = 180_000;

/** A message naming what the set-up must install, when a binary is missing. */
export function missingRealSenlin(): string | undefined {
  const needed = ["/usr/bin/senlin-api", "/usr/bin/senlin-engine", "/usr/bin/senlin-conductor", "/usr/bin/senlin-manage", "/usr/bin/keystone-manage", "/usr/bin/uwsgi", "/usr/sbin/mariadbd", "/usr/lib/rabbitmq/bin/rabbitmq-server"];
  const missing = needed.filter((file) => !existsSync(file));
  if (missing.length > 0) return `the real Senlin is not installed (missing ${missing.join(", ")}): run scripts/setup.sh (step senlin-real)`;
  const greenlet = process.env.CLUSTERFORM_SENLIN_REAL_PYTHONPATH;
  if (!greenlet || !existsSync(path.join(greenlet, "greenlet", "__init__.py"))) {
    return `the greenlet the Senlin daemons run with is missing (CLUSTERFORM_SENLIN_REAL_PYTHONPATH=${greenlet ?? "unset"}): run the tests with npm test, or source scripts/setup.sh (step senlin-real)`;
  }
  return undefined;
}

async function until(what: string, probe: () => Promise<boolean>, alive: () => boolean, log: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await probe().catch(() => false))) {
    if (!alive()) throw new Error(`${what} exited during its start (log: ${log})`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer within ${START_TIMEOUT_MS / 1000} s (log: ${log})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url, { ...init, headers: { "Content-Type": "application/json", ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

function ini(sections: Record<string, Record<string, string | number>>): string {
  return Object.entries(sections)
    .map(([name, values]) => `[${name}]\n${Object.entries(values).map(([k, v]) => `${k} = ${v}`).join("\n")}\n`)
    .join("\n");
}

/** The distribution's python3: another one may come first on PATH. */
const PY_ENV = { PATH: `/usr/bin:/bin:/usr/sbin:/sbin`, LANG: "C.UTF-8" };

/** Senlin's daemons: the distribution's python3 with the set-up's greenlet 3 first (scripts/setup/senlin-real.sh says why). */
function senlinEnv(): NodeJS.ProcessEnv {
  return { ...PY_ENV, PYTHONPATH: process.env.CLUSTERFORM_SENLIN_REAL_PYTHONPATH ?? "" };
}

/** How often a Senlin daemon that exits on its own is started again before the harness gives up on it. */
const RESTARTS = 3;

/**
 * Starts `binary` and starts it again when it exits while the harness has not asked it to stop, up to
 * {@link RESTARTS} times, each noted in the test output with the tail of its log. The daemons keep
 * their state in MariaDB: a restarted engine picks up where the dead one was, and the tests see a
 * slower answer instead of waiting out their timeouts against a dead daemon.
 */
function keepRunning(binary: string, args: string[], log: string, processes: SupervisedProcess[]): void {
  let restarts = 0;
  const start = () => {
    const daemon = new SupervisedProcess(binary, `/usr/bin/${binary}`, args, log, undefined, senlinEnv());
    processes.push(daemon);
    void daemon.exit.then((code) => {
      if (daemon.stopping) return;
      const tail = tailOf(log);
      if (restarts >= RESTARTS) {
        process.stderr.write(`[senlin-real] ${binary} exited (code ${code}) after ${RESTARTS} restarts; not started again. Its log ends:\n${tail}\n`);
        return;
      }
      restarts += 1;
      process.stderr.write(`[senlin-real] ${binary} exited on its own (code ${code}); starting it again (${restarts} of ${RESTARTS}). Its log ends:\n${tail}\n`);
      start();
    });
  };
  start();
}

function tailOf(file: string, lines = 15): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return `(no log at ${file})`;
  }
}

async function startMariadb(dir: string, processes: SupervisedProcess[]): Promise<number> {
  const data = path.join(dir, "mariadb");
  await run("/usr/bin/mariadb-install-db", ["--no-defaults", `--datadir=${data}`, "--user=root", "--auth-root-authentication-method=normal", "--skip-test-db"], { env: PY_ENV });
  const log = path.join(dir, "mariadb.log");
  // A port found free can be taken by another process before mariadbd binds it (ci27: "Bind on
  // TCP/IP port ... Address already in use", while the other listener made the port look open):
  // readiness is mariadbd's own "ready for connections" line, and a lost port is tried again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const p = new SupervisedProcess("mariadbd", "/usr/sbin/mariadbd", [
      "--no-defaults", `--datadir=${data}`, `--socket=${path.join(dir, "mariadb.sock")}`, `--pid-file=${path.join(dir, "mariadb.pid")}`,
      `--port=${port}`, "--bind-address=127.0.0.1", "--user=root", "--skip-grant-tables", "--skip-name-resolve",
      // Senlin's engine and conductor keep many connections checked out (senlin-real-notes.md).
      "--max-connections=2000", "--innodb-buffer-pool-size=64M", "--skip-log-bin", `--log-error=${log}`,
    ], log);
    processes.push(p);
    const started = Date.now();
    const logText = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    while (p.alive && !/ready for connections/.test(logText()) && Date.now() - started < START_TIMEOUT_MS) await new Promise((r) => setTimeout(r, 100));
    if (p.alive && /ready for connections/.test(logText())) {
      await run("/usr/bin/mariadb", ["--no-defaults", "-h127.0.0.1", `-P${port}`, "-uroot", "-e", "CREATE DATABASE senlin CHARACTER SET utf8"], { env: PY_ENV });
      return port;
    }
    await p.stop();
    processes.splice(processes.indexOf(p), 1);
    if (attempt >= 3 || !/Address already in use/.test(logText())) throw new Error(`mariadbd did not become ready on 127.0.0.1:${port} (log: ${log})`);
    writeFileSync(log, "");
  }
}

async function startRabbit(dir: string, processes: SupervisedProcess[]): Promise<number> {
  const [amqp, dist, epmdPort] = [await freePort(), await freePort(), await freePort()];
  mkdirSync(path.join(dir, "rabbit"), { recursive: true });
  writeFileSync(path.join(dir, "rabbit", "enabled_plugins"), "[].\n");
  writeFileSync(path.join(dir, "rabbit", ".erlang.cookie"), "CLUSTERFORMREALSENLINCOOKIE", { mode: 0o400 });
  const epmd = new SupervisedProcess("epmd", "/usr/bin/epmd", ["-port", String(epmdPort), "-address", "127.0.0.1"], path.join(dir, "epmd.log"));
  processes.push(epmd);
  await waitForPort(epmdPort, 30_000, () => epmd.alive);
  const env = {
    ...PY_ENV,
    HOME: path.join(dir, "rabbit"),
    ERL_EPMD_PORT: String(epmdPort),
    ERL_EPMD_ADDRESS: "127.0.0.1",
    RABBITMQ_NODENAME: `clusterform${amqp}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: "127.0.0.1",
    RABBITMQ_NODE_PORT: String(amqp),
    RABBITMQ_DIST_PORT: String(dist),
    RABBITMQ_MNESIA_BASE: path.join(dir, "rabbit", "mnesia"),
    RABBITMQ_LOG_BASE: path.join(dir, "rabbit", "log"),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, "rabbit", "enabled_plugins"),
    RABBITMQ_CONFIG_FILE: path.join(dir, "rabbit", "rabbitmq"),
    RABBITMQ_PID_FILE: path.join(dir, "rabbit", "rabbit.pid"),
    RABBITMQ_SERVER_START_ARGS: "-kernel inet_dist_use_interface {127,0,0,1}",
  };
  const log = path.join(dir, "rabbit.log");
  const p = new SupervisedProcess("rabbitmq", "/usr/lib/rabbitmq/bin/rabbitmq-server", [], log, undefined, env);
  processes.push(p);
  await waitForPort(amqp, START_TIMEOUT_MS, () => p.alive);
  return amqp;
}

async function startKeystone(dir: string, processes: SupervisedProcess[]): Promise<string> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const conf = path.join(dir, "keystone.conf");
  const db = path.join(dir, "keystone.db");
  writeFileSync(conf, ini({
    DEFAULT: { log_file: path.join(dir, "keystone.log"), use_stderr: "false" },
    database: { connection: `sqlite:///${db}` },
    token: { provider: "fernet" },
    fernet_tokens: { key_repository: path.join(dir, "fernet-keys") },
    fernet_receipts: { key_repository: path.join(dir, "fernet-keys") },
    credential: { key_repository: path.join(dir, "credential-keys") },
  }));
  const manage = (...args: string[]) => run("/usr/bin/keystone-manage", ["--config-file", conf, ...args], { env: PY_ENV });
  await manage("db_sync");
  await manage("fernet_setup", "--keystone-user", "root", "--keystone-group", "root");
  await manage("credential_setup", "--keystone-user", "root", "--keystone-group", "root");
  await manage("bootstrap", "--bootstrap-password", ADMIN.password, "--bootstrap-username", ADMIN.user, "--bootstrap-project-name", ADMIN.project,
    "--bootstrap-admin-url", `${url}/v3/`, "--bootstrap-internal-url", `${url}/v3/`, "--bootstrap-public-url", `${url}/v3/`, "--bootstrap-region-id", "RegionOne");
  // One writer at a time on SQLite: without WAL, role creation and token checks lock each other out.
  const sqlite = new DatabaseSync(db);
  sqlite.exec("PRAGMA journal_mode=WAL");
  sqlite.close();
  const log = path.join(dir, "keystone-uwsgi.log");
  const p = new SupervisedProcess("keystone", "/usr/bin/uwsgi", [
    "--plugin", "python3", "--http-socket", `127.0.0.1:${port}`, "--wsgi-file", "/usr/bin/keystone-wsgi-public",
    "--processes", "2", "--lazy-apps", "--add-header", "Connection: close", "--master", "--die-on-term", "--need-app",
  ], log, undefined, { ...PY_ENV, OS_KEYSTONE_CONFIG_FILES: conf });
  processes.push(p);
  await until("keystone", async () => (await fetch(`${url}/v3`)).status === 200, () => p.alive, log);
  return `${url}/v3`;
}

/** A scoped admin token of the real Keystone. */
export async function realToken(keystoneUrl: string, user = ADMIN.user, password = ADMIN.password, project = ADMIN.project): Promise<string> {
  const reply = await json(`${keystoneUrl}/auth/tokens`, {
    method: "POST",
    body: JSON.stringify({
      auth: {
        identity: { methods: ["password"], password: { user: { name: user, domain: { id: "default" }, password } } },
        scope: { project: { name: project, domain: { id: "default" } } },
      },
    }),
  });
  if (reply.status !== 201) throw new Error(`keystone refused the token request: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.headers.get("x-subject-token") ?? "";
}

/** The service project, the senlin user with roles admin and service there, the clustering service and its endpoints. */
async function registerSenlin(keystoneUrl: string, senlinUrl: string): Promise<void> {
  const token = await realToken(keystoneUrl);
  const post = async (p: string, body: unknown) => {
    const reply = await json(`${keystoneUrl}${p}`, { method: "POST", headers: { "X-Auth-Token": token }, body: JSON.stringify(body) });
    if (reply.status !== 201) throw new Error(`keystone POST ${p}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body as Record<string, { id: string }>;
  };
  const get = async (p: string) => (await json(`${keystoneUrl}${p}`, { headers: { "X-Auth-Token": token } })).body as Record<string, { id: string }[]>;
  const project = (await post("/projects", { project: { name: SERVICE.project, domain_id: "default" } })).project.id;
  const user = (await post("/users", { user: { name: SERVICE.user, password: SERVICE.password, domain_id: "default" } })).user.id;
  // Newer Keystones make a `service` role at bootstrap; Keystone 22 may not.
  const service = (await get("/roles?name=service")).roles[0]?.id ?? (await post("/roles", { role: { name: "service" } })).role.id;
  const admin = (await get("/roles?name=admin")).roles[0].id;
  for (const role of [admin, service]) {
    const reply = await fetch(`${keystoneUrl}/projects/${project}/users/${user}/roles/${role}`, { method: "PUT", headers: { "X-Auth-Token": token } });
    if (reply.status !== 204) throw new Error(`keystone role assignment: ${reply.status} ${await reply.text()}`);
  }
  const clustering = (await post("/services", { service: { name: "senlin", type: "clustering" } })).service.id;
  for (const iface of ["public", "internal", "admin"]) {
    await post("/endpoints", { endpoint: { service_id: clustering, interface: iface, url: senlinUrl, region_id: "RegionOne" } });
  }
}

async function startSenlinDaemons(dir: string, ports: { mariadb: number; amqp: number; keystone: string }, processes: SupervisedProcess[]): Promise<string> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const conf = path.join(dir, "senlin.conf");
  const keystoneRoot = ports.keystone.replace(/\/v3$/, "");
  const authtoken = {
    www_authenticate_uri: ports.keystone,
    auth_url: keystoneRoot,
    auth_type: "password",
    username: SERVICE.user,
    password: SERVICE.password,
    project_name: SERVICE.project,
    user_domain_name: "Default",
    project_domain_name: "Default",
  };
  writeFileSync(conf, ini({
    DEFAULT: {
      cloud_backend: "openstack_test",
      transport_url: `rabbit://guest:guest@127.0.0.1:${ports.amqp}/`,
      log_dir: path.join(dir, "log"),
      use_stderr: "false",
      host: "clusterform-real-senlin",
      // The conductor answers every request over RPC; on a busy machine the default 60 s ran out.
      rpc_response_timeout: 180,
    },
    database: {
      connection: `mysql+pymysql://root@127.0.0.1:${ports.mariadb}/senlin?charset=utf8`,
      max_pool_size: 100,
      max_overflow: 400,
      pool_timeout: 60,
    },
    senlin_api: { bind_host: "127.0.0.1", bind_port: port, workers: 1, api_paste_config: "/usr/share/senlin-common/api-paste.ini" },
    engine: { workers: 1 },
    conductor: { workers: 1 },
    health_manager: { workers: 1 },
    keystone_authtoken: authtoken,
    authentication: {
      auth_url: ports.keystone,
      service_username: SERVICE.user,
      service_password: SERVICE.password,
      service_project_name: SERVICE.project,
      service_user_domain: "Default",
      service_project_domain: "Default",
    },
    receiver: { host: "127.0.0.1", port },
    oslo_messaging_notifications: { driver: "noop" },
    oslo_concurrency: { lock_path: path.join(dir, "locks") },
  }));
  mkdirSync(path.join(dir, "log"), { recursive: true });
  await run("/usr/bin/senlin-manage", ["--config-file", conf, "db_sync"], { env: senlinEnv() });
  for (const binary of ["senlin-conductor", "senlin-engine", "senlin-health-manager", "senlin-api"]) {
    keepRunning(binary, ["--config-file", conf], path.join(dir, "log", `${binary}.out`), processes);
  }
  await registerSenlin(ports.keystone, url);
  const api = processes.at(-1)!;
  await until("senlin-api", async () => (await fetch(`${url}/v1`)).status === 200, () => api.alive, path.join(dir, "log"));
  // Ready once a request reaches the engine side and comes back.
  const token = await realToken(ports.keystone);
  await until("senlin-conductor", async () => (await fetch(`${url}/v1/profiles`, { headers: { "X-Auth-Token": token } })).status === 200, () => processes.every((p) => p.alive), path.join(dir, "log"));
  return url;
}

/** Starts MariaDB, RabbitMQ, Keystone and Senlin's four daemons in `dir` (created, and deleted on stop). */
export async function startRealSenlin(dir: string): Promise<RealSenlin> {
  const missing = missingRealSenlin();
  if (missing) throw new Error(missing);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const processes: SupervisedProcess[] = [];
  const stopAll = async () => {
    for (const p of [...processes].reverse()) await p.stop();
  };
  try {
    const [mariadb, amqp, keystone] = await Promise.all([startMariadb(dir, processes), startRabbit(dir, processes), startKeystone(dir, processes)]);
    const senlinUrl = await startSenlinDaemons(dir, { mariadb, amqp, keystone }, processes);
    const stop = async () => {
      await stopAll();
      rmSync(dir, { recursive: true, force: true });
    };
    return { keystoneUrl: keystone, senlinUrl, ...ADMIN, stop };
  } catch (error) {
    // The folder stays, with every daemon's log, for whoever reads the error.
    await stopAll().catch(() => undefined);
    throw new Error(`the real Senlin did not start (logs in ${dir}): ${error instanceof Error ? error.message : String(error)}`);
  }
}
