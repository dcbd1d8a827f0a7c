// Drawing a card is synchronous work on the event loop (a few milliseconds at scale 2). Twenty previews arriving
// together would otherwise be drawn back to back while every other request waits. So cards take turns, and while
// cards are queued drawing gets at most half of the loop: after a card that took d ms, the next one starts d ms
// later, and in between the loop serves whatever else came in (a notify needs several short steps — read, journal
// write, fsync, answer — and each of them would otherwise wait for a card). A card with nobody queued before it
// starts at once. Loading pictures before and deflating the PNG after are not part of a turn: they do not hold the
// loop. See docs/performance-history.md, "bench:render: drawing cards, and previews under load".

const queued: Array<() => void> = [];
/** A card is being drawn, or the pause after one is running. */
let busy = false;

/** Waits for this card's turn; call the function it resolves with (once or more) when the drawing is done. */
export function drawingTurn(): Promise<() => void> {
  return new Promise((resolve) => {
    const begin = (): void => {
      busy = true;
      const started = performance.now();
      let released = false;
      resolve(() => {
        if (released) return;
        released = true;
        const next = queued.shift();
        if (next) setTimeout(next, performance.now() - started);
        else busy = false;
      });
    };
    if (busy) queued.push(begin);
    else begin();
  });
}
