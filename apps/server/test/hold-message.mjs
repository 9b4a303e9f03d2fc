// Loaded into a server process by process.int.test.ts (NODE_OPTIONS=--import): the statement that
// stores a message whose text holds HOLD_MESSAGE_TEXT never reaches the embedded database, so the
// process stays in the middle of what it was storing, for as long as it lives. It says so on
// stderr. HOLD_STATEMENT names the statement (a contact's message unless said). Nothing outside the
// process can hold a statement of the embedded database (it runs on a thread of the process): the
// hold is made where the process hands its statements to that thread.
import { isMainThread, Worker } from 'node:worker_threads';

const text = process.env.HOLD_MESSAGE_TEXT;
const statement = process.env.HOLD_STATEMENT || 'whatsapp_insert_contact_message';
if (isMainThread && text) {
  const postMessage = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (request, ...rest) {
    if (
      request?.name === statement &&
      request.params.some((param) => typeof param === 'string' && param.includes(text))
    ) {
      process.stderr.write(`held the store of ${JSON.stringify(text)}\n`);
      return;
    }
    return postMessage.call(this, request, ...rest);
  };
}
