import type { ComponentChildren } from "preact";

/** A status word, coloured by what it means (settled, working, failed). */
export function Status({ value }: { value: string }) {
  const tone = /ERROR|FAIL|CRITICAL|Failed|KILLED|LOST/i.test(value)
    ? "bad"
    : /RUNNING|ACTIVE|Ready|READY|SUCCEEDED|SUCCESS|Started/.test(value)
      ? "good"
      : /WARNING/.test(value)
        ? "warn"
        : "busy";
  return <span class={`status ${tone}`}>{value}</span>;
}

/** A share (0 to 1, clamped) as a whole percentage. */
export function percentOf(share: number): number {
  return Math.round(Math.max(0, Math.min(1, share)) * 100);
}

/** A labelled progress bar (0 to 1). */
export function Progress({ label, value, detail }: { label: string; value: number; detail?: string }) {
  const percent = percentOf(value);
  return (
    <div class="progress-row">
      <progress aria-label={label} max={100} value={percent} />
      <span>{detail ?? `${percent}%`}</span>
    </div>
  );
}

/** A section with a heading and a table, or a line saying there is nothing. */
export function Table({ caption, headers, rows, empty }: { caption: string; headers: string[]; rows: ComponentChildren[][]; empty?: string }) {
  return (
    <section aria-label={caption}>
      <h3>{caption}</h3>
      {rows.length === 0 ? (
        <p class="empty">{empty ?? `No ${caption.toLowerCase()}.`}</p>
      ) : (
        <table>
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {headers.map((h) => (
                <th scope="col" key={h}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((cells, i) => (
              <tr key={i}>
                {cells.map((cell, j) => (
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The share of an operation's time that has passed at `now`. */
export function elapsedShare(startedAt: string, endsAt: string, now: string): number {
  const [start, end, at] = [Date.parse(startedAt), Date.parse(endsAt), Date.parse(now)];
  return end <= start ? 1 : (at - start) / (end - start);
}
