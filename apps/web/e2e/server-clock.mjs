// Preloaded into the e2e server process (node --import): lets a test move the server's clock
// forward, e.g. past the 60 s resend cooldown, without waiting for it in real time. Time only
// ever moves forward, by messages over the IPC channel the fixture opens:
//   { type: 'advance-clock', id, ms } → { type: 'clock-advanced', id, offsetMs }
// Date stays the same class (same prototype, instanceof works); only "now" is shifted:
// Date.now(), new Date() and Date() called as a function.
const RealDate = Date;
let offsetMs = 0;
const now = () => RealDate.now() + offsetMs;

globalThis.Date = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
  },
  apply() {
    return new RealDate(now()).toString();
  },
  get(target, property, receiver) {
    if (property === 'now') return now;
    return Reflect.get(target, property, receiver);
  },
});

if (process.send) {
  process.on('message', (message) => {
    if (message?.type === 'advance-clock' && typeof message.ms === 'number' && message.ms > 0) {
      offsetMs += message.ms;
      process.send({ type: 'clock-advanced', id: message.id, offsetMs });
    }
  });
  // The channel must not keep the server alive after SIGTERM.
  process.channel?.unref();
}
