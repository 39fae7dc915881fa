// keeps binding port-0 sockets on 127.0.0.1: BATCH new ones every 50 ms, each held HOLD ms
const net = require("node:net");
const until = Date.now() + 15 * 60 * 1000;
const BATCH = Number(process.env.BATCH || 500),
  HOLD = Number(process.env.HOLD || 2000);
let opened = 0,
  failed = 0;
const tick = () => {
  if (Date.now() > until) process.exit(0);
  for (let i = 0; i < BATCH; i++) {
    const s = net.createServer();
    s.on("error", () => {
      failed++;
    });
    s.listen(0, "127.0.0.1", () => {
      opened++;
      setTimeout(() => s.close(), HOLD);
    });
  }
  setTimeout(tick, 50);
};
process.on("SIGTERM", () => {
  console.log(`opened ${opened} failed ${failed}`);
  process.exit(0);
});
tick();
