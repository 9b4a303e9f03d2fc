/**
 * A local stand-in for WhatsApp's WebSocket server, for the Baileys transport's tests (WhatsApp
 * itself cannot be reached from a test). It speaks the real protocol with Baileys' own exported
 * helpers: the Noise XX handshake (a locally made certificate chain: Baileys checks the signatures'
 * form, not WhatsApp's key), binary nodes, QR refs, linking by pairing code (the companion's
 * `link_code_companion_reg` hello, the phone's answer once the code is typed, the companion's
 * finish), `pair-success` with a signed device identity,
 * the 515 restart, the login of stored credentials (`success`), the few queries Baileys makes once
 * open, the queries it makes to send a text (the contact's devices, its LID and its Signal keys:
 * what it sends is decrypted as the contact would), and stream errors on demand. Every step is an
 * event a test can wait on; nothing sleeps.
 */
import { once, EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createConnection, type AddressInfo, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  derivePairingCodeKey,
  encodeWAMessage,
  generateSignalPubKey,
  aesEncryptGCM,
  Curve,
  decodeBinaryNode,
  encodeBinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  hkdf,
  hmacSign,
  jidDecode,
  NOISE_MODE,
  NOISE_WA_HEADER,
  proto,
  sha256,
  unpadRandomMax16,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  type BinaryNode,
} from '@whiskeysockets/baileys';
import {
  ProtocolAddress,
  SessionBuilder,
  SessionCipher,
  type SessionRecord,
  type SignalStorage,
} from 'libsignal';
import { Agent as UndiciAgent } from 'undici';
import { WebSocketServer, type WebSocket } from 'ws';
import { within, withCleanup } from './eventually';

type KeyPair = { private: Uint8Array; public: Uint8Array };

/** The responder's half of WhatsApp's Noise handshake (the client's is Baileys' noise-handler). */
class NoiseResponder {
  private hash: Buffer = Buffer.from(NOISE_MODE);
  private salt: Buffer = this.hash;
  private key: Buffer = this.hash;
  private counter = 0;
  private transport?: { enc: Buffer; dec: Buffer; read: number; write: number };

  constructor() {
    this.authenticate(NOISE_WA_HEADER);
  }

  authenticate(data: Uint8Array) {
    if (!this.transport) this.hash = Buffer.from(sha256(Buffer.concat([this.hash, data])));
  }

  mixIntoKey(data: Uint8Array) {
    const key = Buffer.from(hkdf(Buffer.from(data), 64, { salt: this.salt, info: '' }));
    this.salt = key.subarray(0, 32);
    this.key = key.subarray(32);
    this.counter = 0;
  }

  encrypt(plaintext: Uint8Array): Buffer {
    if (this.transport)
      return aesEncryptGCM(
        plaintext,
        this.transport.enc,
        iv(this.transport.write++),
        Buffer.alloc(0),
      );
    const result = aesEncryptGCM(plaintext, this.key, iv(this.counter++), this.hash);
    this.authenticate(result);
    return result;
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    if (this.transport)
      return aesDecryptGCM(
        ciphertext,
        this.transport.dec,
        iv(this.transport.read++),
        Buffer.alloc(0),
      );
    const result = aesDecryptGCM(ciphertext, this.key, iv(this.counter++), this.hash);
    this.authenticate(ciphertext);
    return result;
  }

  /** The client writes with the first half and reads with the second: the server the reverse. */
  finish() {
    const key = Buffer.from(hkdf(Buffer.alloc(0), 64, { salt: this.salt, info: '' }));
    this.transport = { dec: key.subarray(0, 32), enc: key.subarray(32), read: 0, write: 0 };
  }
}

function iv(counter: number) {
  const buffer = Buffer.alloc(12);
  buffer.writeUInt32BE(counter, 8);
  return buffer;
}

/** A certificate chain in WhatsApp's shape, made here: intermediate → leaf (the server's static key). */
function makeCertChain(serverStatic: KeyPair): Uint8Array {
  const intermediateKey = Curve.generateKeyPair();
  const rootKey = Curve.generateKeyPair();
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 1,
    issuerSerial: 0,
    key: intermediateKey.public,
    notBefore: 0,
    notAfter: 4_102_444_800,
  }).finish();
  const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 2,
    issuerSerial: 1,
    key: serverStatic.public,
    notBefore: 0,
    notAfter: 4_102_444_800,
  }).finish();
  return proto.CertChain.encode({
    intermediate: {
      details: intermediateDetails,
      signature: Curve.sign(rootKey.private, intermediateDetails),
    },
    leaf: { details: leafDetails, signature: Curve.sign(intermediateKey.private, leafDetails) },
  }).finish();
}

/** What the device sends that the fake records for the tests, each once its node before is. */
const HEARD_IN_ORDER = new Set(['message', 'receipt', 'chatstate']);

/** The name in each kind's media keys (HKDF's info): a sticker is encrypted as an image. */
const MEDIA_KEYS = {
  image: 'Image',
  sticker: 'Image',
  voice: 'Audio',
  video: 'Video',
  document: 'Document',
} as const;

/** What a client said in its handshake: a new device asking for QR codes, or a login. */
export type Hello =
  | { kind: 'registration'; identityKey: Uint8Array }
  | { kind: 'login'; username: string; device: number };

/** A text a linked device sent to a contact, as the contact read it. */
export type SentText = { from: string; to: string; id: string; text: string | undefined };
/**
 * A photo or a document a linked device sent to a contact, as the contact read it: the whole
 * message (its `imageMessage` or `documentMessage`: the address, key and hashes of the upload).
 */
export type SentMedia = { from: string; to: string; id: string; message: proto.IMessage };
/** Typing the linked number `from` showed to the contact `to` (digits). */
export type ChatState = { from: string; to: string; state: string | undefined };
/** Messages of the contact `to` the linked number `from` marked read. */
export type ReadMark = { from: string; to: string; ids: string[] };

/** How the server answers a login of stored credentials. */
export type LoginAnswer =
  | { kind: 'success' }
  | { kind: 'stream-error'; code: number }
  | { kind: 'failure'; reason: number };

/** One client connection, after the handshake. */
export class FakeConnection extends EventEmitter {
  private tag = 0;
  closed = false;
  /** Logged in with stored credentials: messages for its number reach it. */
  loggedIn = false;
  /** The QR refs this connection was given. */
  refs: string[] = [];
  /** The pairing code this (registering) connection asked for: the number, and its ephemeral key wrapped with the code. */
  linkCode?: { phone: string; wrapped: Buffer };

  constructor(
    private readonly ws: WebSocket,
    private readonly noise: NoiseResponder,
    readonly hello: Hello,
  ) {
    super();
  }

  nextId() {
    return `fake-${++this.tag}`;
  }

  async send(node: BinaryNode) {
    const data = this.noise.encrypt(encodeBinaryNode(node));
    const frame = Buffer.alloc(3 + data.length);
    frame.writeUIntBE(data.length, 0, 3);
    data.copy(frame, 3);
    await new Promise<void>((resolve, reject) =>
      this.ws.send(frame, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Ends the stream the way WhatsApp does: `<stream:error code=…/>`, then the client closes. */
  async streamError(code: number) {
    await this.send({ tag: 'stream:error', attrs: { code: String(code) } });
  }

  /** Waits for the next node from the client that `match` accepts (`what`); fails after `ms`. */
  waitFor(match: (node: BinaryNode) => boolean, what: string, ms?: number): Promise<BinaryNode> {
    let cleanup = () => {};
    const found = new Promise<BinaryNode>((resolve, reject) => {
      const onNode = (node: BinaryNode) => {
        if (!match(node)) return;
        cleanup();
        resolve(node);
      };
      const onClose = () => {
        cleanup();
        reject(new Error(`${what}: the client closed the connection first`));
      };
      cleanup = () => {
        this.off('node', onNode);
        this.off('close', onClose);
      };
      this.on('node', onNode);
      this.on('close', onClose);
    });
    return withCleanup(within(found, `${what} from the client`, ms), () => cleanup());
  }

  terminate() {
    this.ws.terminate();
  }
}

export type FakeWhatsApp = Awaited<ReturnType<typeof startFakeWhatsApp>>;

/**
 * Starts the fake server on a free local port. `url` is what WHATSAPP_WS_URL would hold.
 * Events: `connection` (FakeConnection, after the handshake), `qr-refs`, `paired`, `logged-in`
 * (after the offline messages), `sent` (SentText), `sent-media` (SentMedia), `uploaded`, `waiting` ({ to, id }: a message kept for a
 * number not connected).
 */
export async function startFakeWhatsApp() {
  const events = new EventEmitter();
  const serverStatic = Curve.generateKeyPair();
  const certChain = makeCertChain(serverStatic);
  /** Devices linked by a scan: their login is accepted; what they uploaded lets contacts write to them. */
  const linked = new Map<string, LinkedDevice>();
  const connections = new Set<FakeConnection>();
  /** The contacts linked devices write to, by phone, each made when first asked about. */
  const contacts = new Map<string, Contact>();
  const sockets = new Set<Socket>();
  let upgradeStatus: number | undefined;
  let refsPerConnection = 6;
  let loginAnswer: LoginAnswer = { kind: 'success' };
  let attempts = 0;
  /** Messages for linked numbers that were not connected, in order: handed over at their next login. */
  const waiting = new Map<string, Waiting[]>();
  /** Linked numbers whose next sends WhatsApp refuses (how many more, and its error code). */
  const refusing = new Map<string, { count: number; code: string }>();
  /** Linked numbers whose next hand-over pauses after its first `after` messages until `until`. */
  const pausing = new Map<string, { after: number; until: Promise<void> }>();
  let waitingSequence = 0;

  /**
   * Encrypted files, by path, served as WhatsApp's media hosts serve them: a contact's
   * (`deliverMedia`), and what linked devices upload before they send a file (see `receiveUpload`).
   */
  const uploads = new Map<string, Buffer>();
  /**
   * Files of `deliverMedia` that expired from the media host before the device fetched them, by
   * their message's id: what the sender's phone uploads again when asked (or that it cannot).
   */
  const expired = new Map<
    string,
    {
      kind: keyof typeof MEDIA_KEYS;
      mediaKey: Buffer;
      encrypted: Buffer;
      /** Whether the phone uploads it again, says it cannot, or never answers (it is off). */
      phone: 'reupload' | 'gone' | 'silent';
    }
  >();
  /** The messages whose expired file a device asked for again, one entry per request. */
  const mediaRetries: string[] = [];
  const http: Server = createServer((req, res) => {
    if (req.method === 'POST') return void receiveUpload(req, res);
    const upload = uploads.get(req.url ?? '');
    if (!upload) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(upload);
  });

  /**
   * A device's upload of a file it is about to send, as WhatsApp's media hosts take it: a POST of
   * the encrypted file to `/mms/<type>/<its encrypted SHA-256>?auth=<media_conn's auth>`, answered
   * with where it is served (`url`, `direct_path`). Event `uploaded` ({ path, bytes }).
   */
  async function receiveUpload(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const type = /^\/mms\/(\w+)\/[\w-]+$/.exec(url.pathname)?.[1];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!type || url.searchParams.get('auth') !== MEDIA_AUTH) return void res.writeHead(403).end();
    const body = Buffer.concat(chunks);
    const path = `/mms/${type}/${randomBytes(12).toString('hex')}`;
    uploads.set(path, body);
    events.emit('uploaded', { path, bytes: body });
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ url: `http://127.0.0.1:${port}${path}`, direct_path: path }));
  }
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req: IncomingMessage, socket, head) => {
    attempts += 1;
    events.emit('attempt', attempts);
    if (upgradeStatus) {
      socket.end(
        `HTTP/1.1 ${upgradeStatus} Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });

  function serve(ws: WebSocket) {
    const noise = new NoiseResponder();
    let inBytes = Buffer.alloc(0);
    let introSeen = false;
    let serverEphemeral: KeyPair | undefined;
    let connection: FakeConnection | undefined;
    /** The last node's turn: nodes are heard in the order they came on the wire. */
    let turn: Promise<void> = Promise.resolve();

    ws.on('message', (data: Buffer) => {
      inBytes = Buffer.concat([inBytes, data]);
      if (!introSeen) {
        if (inBytes.length < NOISE_WA_HEADER.length) return;
        inBytes = inBytes.subarray(NOISE_WA_HEADER.length);
        introSeen = true;
      }
      while (inBytes.length >= 3) {
        const size = inBytes.readUIntBE(0, 3);
        if (inBytes.length < size + 3) return;
        const frame = inBytes.subarray(3, size + 3);
        inBytes = inBytes.subarray(size + 3);
        void onFrame(frame).catch((error: unknown) => {
          events.emit('error-in-handler', error);
          ws.terminate();
        });
      }
    });
    ws.on('close', () => {
      if (connection) {
        connection.closed = true;
        connections.delete(connection);
        connection.emit('close');
      }
    });

    async function onFrame(frame: Buffer) {
      if (connection) {
        const decrypted = noise.decrypt(frame);
        const previous = turn;
        let done!: () => void;
        turn = new Promise((resolve) => (done = resolve));
        try {
          // Decoding (and decrypting what the device sent a contact) takes its time: a node that
          // came later waits for it, so that a read mark sent after a reply is heard after it,
          // as WhatsApp gets them. What answers a query goes on at once (a login waits for the
          // device's receipts, which come in later frames).
          const node = await decodeBinaryNode(decrypted);
          await previous;
          connection.emit('node', node);
          if (!HEARD_IN_ORDER.has(node.tag)) done();
          await answer(connection, node);
        } finally {
          done();
        }
        return;
      }
      const handshake = proto.HandshakeMessage.decode(frame);
      if (handshake.clientHello?.ephemeral) {
        const clientEphemeral = handshake.clientHello.ephemeral;
        serverEphemeral = Curve.generateKeyPair();
        noise.authenticate(clientEphemeral);
        noise.authenticate(serverEphemeral.public);
        noise.mixIntoKey(Curve.sharedKey(serverEphemeral.private, clientEphemeral));
        const encryptedStatic = noise.encrypt(serverStatic.public);
        noise.mixIntoKey(Curve.sharedKey(serverStatic.private, clientEphemeral));
        const payload = noise.encrypt(certChain);
        const hello = proto.HandshakeMessage.encode({
          serverHello: { ephemeral: serverEphemeral.public, static: encryptedStatic, payload },
        }).finish();
        const out = Buffer.alloc(3 + hello.length);
        out.writeUIntBE(hello.length, 0, 3);
        out.set(hello, 3);
        ws.send(out);
        return;
      }
      if (handshake.clientFinish && serverEphemeral) {
        const clientStatic = noise.decrypt(handshake.clientFinish.static!);
        noise.mixIntoKey(Curve.sharedKey(serverEphemeral.private, clientStatic));
        const payload = proto.ClientPayload.decode(noise.decrypt(handshake.clientFinish.payload!));
        noise.finish();
        const hello: Hello = payload.devicePairingData
          ? { kind: 'registration', identityKey: payload.devicePairingData.eIdent! }
          : { kind: 'login', username: String(payload.username), device: payload.device ?? 0 };
        connection = new FakeConnection(ws, noise, hello);
        connections.add(connection);
        events.emit('connection', connection);
        await greet(connection);
      }
    }
  }

  async function greet(connection: FakeConnection) {
    const { hello } = connection;
    if (hello.kind === 'registration') {
      connection.refs = Array.from(
        { length: refsPerConnection },
        (_, i) => `ref-${connection.nextId()}-${i}`,
      );
      await connection.send({
        tag: 'iq',
        attrs: { from: 's.whatsapp.net', type: 'set', id: connection.nextId(), xmlns: 'md' },
        content: [
          {
            tag: 'pair-device',
            attrs: {},
            content: connection.refs.map((ref) => ({
              tag: 'ref',
              attrs: {},
              content: Buffer.from(ref),
            })),
          },
        ],
      });
      events.emit('qr-refs', connection);
      return;
    }
    const answerNow = loginAnswer;
    if (answerNow.kind === 'stream-error') {
      await connection.streamError(answerNow.code);
      return;
    }
    if (answerNow.kind === 'failure') {
      await connection.send({ tag: 'failure', attrs: { reason: String(answerNow.reason) } });
      return;
    }
    if (!linked.has(hello.username)) {
      await connection.send({ tag: 'failure', attrs: { reason: '401' } });
      return;
    }
    await connection.send({
      tag: 'success',
      attrs: {
        t: String(Math.floor(Date.now() / 1000)),
        lid: `9${hello.username}:${hello.device}@lid`,
      },
    });
    connection.loggedIn = true;
    // What came while it was away is handed over first, marked `offline`; once the device has
    // acknowledged it all, `<ib><offline/></ib>` says that was all (Baileys then lets out the
    // events it held back since the login, together).
    const queued = waiting.get(hello.username) ?? [];
    waiting.delete(hello.username);
    const device = linked.get(hello.username)!;
    const pause = pausing.get(hello.username);
    pausing.delete(hello.username);
    const parts = pause ? [queued.slice(0, pause.after), queued.slice(pause.after)] : [queued];
    for (const [index, part] of parts.entries()) {
      if (index > 0) await pause!.until;
      const received = receiptsOf(connection, new Set(part.map((q) => q.id)));
      for (const q of part)
        await sendEncrypted(connection, device, hello.username, { ...q.attrs, offline: '1' }, q);
      await received;
    }
    await connection.send({
      tag: 'ib',
      attrs: {},
      content: [{ tag: 'offline', attrs: { count: String(queued.length) } }],
    });
    events.emit('logged-in', connection);
  }

  /** The contact with this phone or LID user; made when `create` and unknown. */
  function contactOf(user: string, create = true): Contact | undefined {
    const known = contacts.get(user) ?? [...contacts.values()].find((c) => c.lid === user);
    if (known || !create) return known;
    const contact = makeContact(user);
    contacts.set(user, contact);
    return contact;
  }

  /** A text the device sent: each copy meant for a known contact is decrypted as that contact would. */
  async function readSent(connection: FakeConnection, node: BinaryNode) {
    if (connection.hello.kind !== 'login') return;
    const from = connection.hello.username;
    for (const to of getBinaryNodeChildren(getBinaryNodeChild(node, 'participants'), 'to')) {
      const contact = contactOf(jidDecode(to.attrs.jid)?.user ?? '', false);
      const enc = getBinaryNodeChild(to, 'enc');
      if (!contact || !enc) continue;
      const cipher = new SessionCipher(
        contact.storage,
        new ProtocolAddress(from, connection.hello.device),
      );
      const padded =
        enc.attrs.type === 'pkmsg'
          ? await cipher.decryptPreKeyWhisperMessage(bytes(enc))
          : await cipher.decryptWhisperMessage(bytes(enc));
      const message = proto.Message.decode(unpadRandomMax16(padded));
      const text = message.conversation ?? message.extendedTextMessage?.text ?? undefined;
      const id = node.attrs.id!;
      if (message.imageMessage || message.documentMessage)
        events.emit('sent-media', { from, to: contact.phone, id, message } satisfies SentMedia);
      else events.emit('sent', { from, to: contact.phone, id, text } satisfies SentText);
    }
  }

  /**
   * The few queries Baileys makes once open, answered as WhatsApp would; any other iq gets an empty
   * result. A contact has one device (0) and a LID; the linked number has no other device.
   */
  async function answer(connection: FakeConnection, node: BinaryNode) {
    if (node.tag === 'message') {
      const refusal =
        connection.hello.kind === 'login' ? refusing.get(connection.hello.username) : undefined;
      if (refusal && refusal.count > 0) {
        // Refused, as WhatsApp refuses a message (e.g. 463, a restricted account): its ack carries
        // the error, and nothing reaches the contact.
        refusal.count -= 1;
        await connection.send({
          tag: 'ack',
          attrs: {
            class: 'message',
            id: node.attrs.id!,
            from: node.attrs.to!,
            t: String(Math.floor(Date.now() / 1000)),
            error: refusal.code,
          },
        });
        events.emit('refused', { id: node.attrs.id!, to: node.attrs.to!, code: refusal.code });
        return;
      }
      await readSent(connection, node);
      return;
    }
    if (node.tag === 'chatstate' && connection.hello.kind === 'login') {
      // Typing shown to a contact: `composing` or `paused`.
      const state = Array.isArray(node.content) ? node.content[0]?.tag : undefined;
      events.emit('chatstate', {
        from: connection.hello.username,
        to: jidDecode(node.attrs.to)?.user ?? '',
        state,
      } satisfies ChatState);
      return;
    }
    if (node.tag === 'receipt' && node.attrs.type === 'server-error') {
      await answerMediaRetry(connection, node);
      return;
    }
    if (node.tag === 'receipt' && node.attrs.type === 'read' && connection.hello.kind === 'login') {
      // The contact's messages marked read: the first id, then those of its list.
      const listed = getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'item').map(
        (item) => item.attrs.id!,
      );
      events.emit('read', {
        from: connection.hello.username,
        to: jidDecode(node.attrs.to)?.user ?? '',
        ids: [node.attrs.id!, ...listed],
      } satisfies ReadMark);
      return;
    }
    if (node.tag !== 'iq' || (node.attrs.type !== 'get' && node.attrs.type !== 'set')) return;
    const linkCode = getBinaryNodeChild(node, 'link_code_companion_reg');
    if (linkCode?.attrs.stage === 'companion_hello') {
      const wrapped = getBinaryNodeChild(
        linkCode,
        'link_code_pairing_wrapped_companion_ephemeral_pub',
      );
      connection.linkCode = {
        phone: jidDecode(linkCode.attrs.jid)?.user ?? '',
        wrapped: Buffer.from(bytes(wrapped!)),
      };
      events.emit('pairing-code-asked', connection);
    }
    const result = {
      tag: 'iq',
      attrs: { from: 's.whatsapp.net', type: 'result', id: node.attrs.id! },
    };
    const device =
      connection.hello.kind === 'login' ? linked.get(connection.hello.username) : undefined;
    const own = connection.hello.kind === 'login' ? connection.hello.username : undefined;
    if (node.attrs.xmlns === 'usync') {
      const usync = getBinaryNodeChild(node, 'usync');
      const query = getBinaryNodeChild(usync, 'query');
      const [askDevices, askLid] = [
        getBinaryNodeChild(query, 'devices'),
        getBinaryNodeChild(query, 'lid'),
      ];
      const users = getBinaryNodeChildren(getBinaryNodeChild(usync, 'list'), 'user').map(
        (user): BinaryNode => {
          const jid = user.attrs.jid!;
          const phone = jidDecode(jid)?.user ?? '';
          const contact = phone === own ? undefined : contactOf(phone);
          const content: BinaryNode[] = [];
          if (askDevices) {
            const list = contact ? [{ tag: 'device', attrs: { id: '0' } }] : [];
            content.push({
              tag: 'devices',
              attrs: {},
              content: [{ tag: 'device-list', attrs: {}, content: list }],
            });
          }
          if (askLid && contact) content.push({ tag: 'lid', attrs: { val: `${contact.lid}@lid` } });
          return { tag: 'user', attrs: { jid }, content };
        },
      );
      await connection.send({
        ...result,
        content: [
          { tag: 'usync', attrs: {}, content: [{ tag: 'list', attrs: {}, content: users }] },
        ],
      });
      return;
    }
    if (node.attrs.xmlns === 'w:m' && getBinaryNodeChild(node, 'media_conn')) {
      // Where to upload a file to send: this server's own HTTP host.
      const mediaConn = {
        tag: 'media_conn',
        attrs: { auth: MEDIA_AUTH, ttl: '3600' },
        content: [
          {
            tag: 'host',
            attrs: { hostname: `127.0.0.1:${port}`, maxContentLengthBytes: '104857600' },
          },
        ],
      };
      await connection.send({ ...result, content: [mediaConn] });
      return;
    }
    if (
      node.attrs.xmlns === 'encrypt' &&
      node.attrs.type === 'get' &&
      getBinaryNodeChild(node, 'key')
    ) {
      const users = getBinaryNodeChildren(getBinaryNodeChild(node, 'key'), 'user').map(
        (user): BinaryNode => ({
          tag: 'user',
          attrs: { jid: user.attrs.jid! },
          content: keyBundle(contactOf(jidDecode(user.attrs.jid)?.user ?? '')!),
        }),
      );
      await connection.send({ ...result, content: [{ tag: 'list', attrs: {}, content: users }] });
      return;
    }
    if (node.attrs.xmlns === 'privacy' && node.attrs.type === 'get') {
      const privacy = {
        tag: 'privacy',
        attrs: {},
        content: [{ tag: 'category', attrs: { name: 'readreceipts', value: 'all' } }],
      };
      await connection.send({ ...result, content: [privacy] });
      return;
    }
    if (node.attrs.xmlns === 'encrypt' && getBinaryNodeChild(node, 'count')) {
      await connection.send({
        ...result,
        content: [{ tag: 'count', attrs: { value: String(device?.preKeys.size ?? 0) } }],
      });
      return;
    }
    if (node.attrs.xmlns === 'encrypt' && getBinaryNodeChild(node, 'digest')) {
      await connection.send({ ...result, content: [{ tag: 'digest', attrs: {} }] });
      return;
    }
    if (node.attrs.xmlns === 'encrypt' && node.attrs.type === 'set' && device)
      storeKeyBundle(device, node);
    await connection.send(result);
  }

  /**
   * A device asks for a file that expired from the media host (Baileys' `updateMediaMessage`): a
   * `server-error` receipt naming the message, its `rmr` saying whose, and the message id sealed
   * (AES-GCM) with a key HKDF-derived from the file's media key, which only a holder of the
   * message has. WhatsApp passes it to the sender's phone, which uploads the file again; the
   * answer is a `mediaretry` notification carrying a `MediaRetryNotification` (the new direct path,
   * or why there is none) sealed with the same key. Event `media-retry` (the message id).
   */
  async function answerMediaRetry(connection: FakeConnection, node: BinaryNode) {
    const id = node.attrs.id!;
    const file = expired.get(id);
    const rmr = getBinaryNodeChild(node, 'rmr');
    const sealed = getBinaryNodeChild(node, 'encrypt');
    if (!file || !rmr || !sealed) return;
    const retryKey = hkdf(file.mediaKey, 32, { info: 'WhatsApp Media Retry Notification' });
    const request = proto.ServerErrorReceipt.decode(
      aesDecryptGCM(
        bytes(getBinaryNodeChild(sealed, 'enc_p')),
        retryKey,
        bytes(getBinaryNodeChild(sealed, 'enc_iv')),
        Buffer.from(id),
      ),
    );
    if (request.stanzaId !== id)
      throw new Error(`a media retry for ${id} names ${request.stanzaId}`);
    mediaRetries.push(id);
    events.emit('media-retry', id);
    if (file.phone === 'silent') return;
    const { ResultType } = proto.MediaRetryNotification;
    let answer: proto.IMediaRetryNotification = { stanzaId: id, result: ResultType.NOT_FOUND };
    if (file.phone === 'reupload') {
      const directPath = `/mms/${file.kind}/${randomBytes(12).toString('hex')}`;
      uploads.set(directPath, file.encrypted);
      answer = { stanzaId: id, directPath, result: ResultType.SUCCESS };
    }
    const iv = randomBytes(12);
    await connection.send({
      tag: 'notification',
      attrs: {
        from: 's.whatsapp.net',
        type: 'mediaretry',
        id,
        t: String(Math.floor(Date.now() / 1000)),
      },
      content: [
        { tag: 'rmr', attrs: rmr.attrs },
        {
          tag: 'encrypt',
          attrs: {},
          content: [
            {
              tag: 'enc_p',
              attrs: {},
              content: aesEncryptGCM(
                proto.MediaRetryNotification.encode(answer).finish(),
                retryKey,
                iv,
                Buffer.from(id),
              ),
            },
            { tag: 'enc_iv', attrs: {}, content: iv },
          ],
        },
      ],
    });
  }

  /**
   * `message` reaches the linked number `to` as WhatsApp delivers it: encrypted for its device in
   * a new Signal session made from the pre-keys it uploaded (`pkmsg`), in a `<message>` with
   * `attrs`; sent at once to its open connection, or kept until its next login when it has none.
   * `sentAt` (default now) is when it was sent.
   */
  async function deliver(
    to: string,
    attrs: Record<string, string>,
    message: proto.IMessage,
    givenId?: string,
    sentAt = new Date(),
  ) {
    const device = linked.get(to);
    if (!device?.identity || !device.signedPreKey) throw new Error(`${to} is not linked`);
    const connection = [...connections].find(
      (c) => c.loggedIn && !c.closed && c.hello.kind === 'login' && c.hello.username === to,
    );
    const t = Math.floor(sentAt.getTime() / 1000);
    if (!connection) {
      const id = givenId ?? `3EB0AWAY${String((waitingSequence += 1)).padStart(8, '0')}`;
      const queue = waiting.get(to) ?? [];
      queue.push({ attrs, message, id, t });
      waiting.set(to, queue);
      events.emit('waiting', { to, id });
      return { id };
    }
    const id = givenId ?? `3EB0${connection.nextId().replace(/\W/g, '').toUpperCase()}`;
    await sendEncrypted(connection, device, to, attrs, { message, id, t });
    return { id };
  }

  /** Resolves once the client has sent a receipt for every one of `ids`. */
  function receiptsOf(connection: FakeConnection, ids: Set<string>): Promise<void> {
    if (ids.size === 0) return Promise.resolve();
    let stop = () => {};
    const all = new Promise<void>((resolve) => {
      const onNode = (node: BinaryNode) => {
        if (node.tag !== 'receipt') return;
        ids.delete(node.attrs.id ?? '');
        for (const item of getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'item'))
          ids.delete(item.attrs.id ?? '');
        if (ids.size > 0) return;
        stop();
        resolve();
      };
      stop = () => void connection.off('node', onNode);
      connection.on('node', onNode);
    });
    return withCleanup(within(all, 'the receipts of the offline messages'), () => stop());
  }

  async function sendEncrypted(
    connection: FakeConnection,
    device: LinkedDevice,
    to: string,
    attrs: Record<string, string>,
    { message, id, t }: { message: proto.IMessage; id: string; t: number },
  ) {
    if (!device.identity || !device.signedPreKey) throw new Error(`${to} is not linked`);
    const [preKeyId, preKey] = [...device.preKeys][0] ?? [];
    if (preKeyId === undefined || !preKey) throw new Error(`${to} has no pre-keys left`);
    device.preKeys.delete(preKeyId);
    // A contact writes from its own Signal store, the one that reads what the device sends back:
    // a reply on the session of the contact's latest message is read as the contact would.
    // (The number's own phone, writing its copies, has a store of its own each time.)
    const sender = jidDecode(attrs.from)?.user;
    const storage =
      (sender && sender !== to ? contactOf(sender)?.storage : undefined) ?? contactStorage();
    const address = new ProtocolAddress(to, 1);
    await new SessionBuilder(storage, address).initOutgoing({
      registrationId: device.registrationId!,
      identityKey: generateSignalPubKey(device.identity),
      signedPreKey: {
        ...device.signedPreKey,
        publicKey: generateSignalPubKey(device.signedPreKey.publicKey),
      },
      preKey: { keyId: preKeyId, publicKey: generateSignalPubKey(preKey) },
    });
    const { type, body } = await new SessionCipher(storage, address).encrypt(
      encodeWAMessage(message),
    );
    await connection.send({
      tag: 'message',
      attrs: { ...attrs, id, t: String(t), type: 'text' },
      content: [
        {
          tag: 'enc',
          attrs: { v: '2', type: type === 3 ? 'pkmsg' : 'msg' },
          content: Buffer.from(body, 'binary'),
        },
      ],
    });
  }

  /** WhatsApp's `pair-success` for `phone` (device 1), its signed answer awaited, then the 515. */
  async function pairSuccess(
    connection: FakeConnection,
    phone: string,
    identity: Uint8Array,
    advSecret: Uint8Array,
  ) {
    const accountKey = Curve.generateKeyPair();
    const deviceDetails = proto.ADVDeviceIdentity.encode({
      rawId: 1,
      timestamp: Math.floor(Date.now() / 1000),
      keyIndex: 1,
    }).finish();
    const accountSignature = Curve.sign(
      accountKey.private,
      Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, deviceDetails, identity]),
    );
    const details = proto.ADVSignedDeviceIdentity.encode({
      details: deviceDetails,
      accountSignatureKey: accountKey.public,
      accountSignature,
    }).finish();
    const hmac = hmacSign(details, advSecret);
    const id = connection.nextId();
    const signed = connection.waitFor(
      (node) => node.attrs.id === id && node.attrs.type === 'result',
      'the answer to the pairing',
    );
    await connection.send({
      tag: 'iq',
      attrs: {
        from: 's.whatsapp.net',
        type: 'set',
        id,
        t: String(Math.floor(Date.now() / 1000)),
      },
      content: [
        {
          tag: 'pair-success',
          attrs: {},
          content: [
            {
              tag: 'device-identity',
              attrs: {},
              content: proto.ADVSignedDeviceIdentityHMAC.encode({ details, hmac }).finish(),
            },
            { tag: 'platform', attrs: { name: 'android' } },
            {
              tag: 'device',
              attrs: { jid: `${phone}:1@s.whatsapp.net`, lid: `9${phone}:1@lid` },
            },
          ],
        },
      ],
    });
    const reply = await signed;
    if (!getBinaryNodeChild(reply, 'pair-device-sign'))
      throw new Error('the client did not sign the pairing');
    linked.set(phone, { preKeys: new Map() });
    events.emit('paired', phone);
    await connection.streamError(515);
  }

  const { port } = await listen(http);
  const mediaDownloadDispatcher = new UndiciAgent({
    connect: (_options, callback) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => callback(null, socket)).once('error', (e) => callback(e, null));
      return socket;
    },
  });
  return {
    url: `ws://127.0.0.1:${port}/ws/chat`,
    /**
     * What the app's Baileys uploads the files it sends through (its `fetchAgent`): WhatsApp's
     * media hosts speak HTTPS, this server's speaks plain HTTP, so the agent connects without TLS.
     */
    mediaUploadAgent: new PlainHttpsAgent(),
    /**
     * What the app's Baileys fetches received files through (fetch's `dispatcher`): a file asked
     * for again is fetched from `https://<media host><new path>`; here every media host is this
     * server, reached without TLS.
     */
    mediaDownloadDispatcher,
    /** The messages whose expired file a device asked for again, one entry per request. */
    get mediaRetries(): readonly string[] {
      return mediaRetries;
    },
    /** The encrypted file a device uploaded, by the address its message carries. */
    uploaded(url: string): Buffer | undefined {
      return uploads.get(new URL(url).pathname);
    },
    events,
    connections,
    /** How many WebSocket upgrades were asked for so far. */
    get attempts() {
      return attempts;
    },
    /** Answers every upgrade with this HTTP status instead of a WebSocket (undefined: accept). */
    set upgradeStatus(status: number | undefined) {
      upgradeStatus = status;
    },
    /** How many QR refs each new registration gets (WhatsApp gives six). */
    set refsPerConnection(count: number) {
      refsPerConnection = count;
    },
    /** How logins of stored credentials are answered from now on. */
    set loginAnswer(answer: LoginAnswer) {
      loginAnswer = answer;
    },
    /** Waits for the next event `name`, resolving with its first argument; fails after `ms`. */
    next<T = FakeConnection>(name: string, ms?: number): Promise<T> {
      return within(
        once(events, name).then(([value]) => value as T),
        `the fake WhatsApp's next ${name}`,
        ms,
      );
    },
    /**
     * The phone scans `qr`: the connection that showed it gets `pair-success` for `phone`
     * (device 1), its signed answer is awaited, then WhatsApp's 515 "restart required".
     */
    async scan(qr: string, phone: string) {
      const [ref, , identityB64, advB64] = qr.slice(qr.indexOf('#') + 1).split(',');
      const connection = [...connections].find((c) => ref && c.refs.includes(ref));
      if (!connection || !identityB64 || !advB64)
        throw new Error(`no connection shows the QR ${qr}`);
      await pairSuccess(
        connection,
        phone,
        Buffer.from(identityB64, 'base64'),
        Buffer.from(advB64, 'base64'),
      );
    },
    /**
     * The phone `phone` types the pairing code `code` (WhatsApp > Linked devices > Link with phone
     * number): the connection that asked for a code for that number gets the phone's half of the
     * key exchange, wrapped with the code; its finish is read with it (a wrong code cannot be
     * read), then `pair-success` and the 515 as for a scan.
     */
    async enterPairingCode(code: string, phone: string) {
      const connection = [...connections].find((c) => c.linkCode?.phone === phone);
      if (!connection?.linkCode) throw new Error(`no connection asked for a code for ${phone}`);
      const { wrapped } = connection.linkCode;
      const companionEphemeral = aesDecryptCTR(
        wrapped.subarray(48, 80),
        await derivePairingCodeKey(code, wrapped.subarray(0, 32)),
        wrapped.subarray(32, 48),
      );
      const primaryEphemeral = Curve.generateKeyPair();
      const primaryIdentity = Curve.generateKeyPair();
      const salt = randomBytes(32);
      const iv = randomBytes(16);
      const wrappedPrimary = Buffer.concat([
        salt,
        iv,
        aesEncryptCTR(primaryEphemeral.public, await derivePairingCodeKey(code, salt), iv),
      ]);
      const finished = connection.waitFor(
        (node) =>
          getBinaryNodeChild(node, 'link_code_companion_reg')?.attrs.stage === 'companion_finish',
        'the companion finish of the code pairing',
      );
      await connection.send({
        tag: 'notification',
        attrs: { from: 's.whatsapp.net', type: 'link_code_companion_reg', id: connection.nextId() },
        content: [
          {
            tag: 'link_code_companion_reg',
            attrs: {},
            content: [
              { tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from('fake-ref') },
              { tag: 'primary_identity_pub', attrs: {}, content: primaryIdentity.public },
              {
                tag: 'link_code_pairing_wrapped_primary_ephemeral_pub',
                attrs: {},
                content: wrappedPrimary,
              },
            ],
          },
        ],
      });
      const finish = getBinaryNodeChild(await finished, 'link_code_companion_reg')!;
      const bundle = Buffer.from(
        bytes(getBinaryNodeChild(finish, 'link_code_pairing_wrapped_key_bundle')!),
      );
      const companionShared = Curve.sharedKey(primaryEphemeral.private, companionEphemeral);
      const bundleKey = hkdf(companionShared, 32, {
        salt: bundle.subarray(0, 32),
        info: 'link_code_pairing_key_bundle_encryption_key',
      });
      // Throws for a wrong code: the companion's key bundle cannot be read.
      const payload = aesDecryptGCM(
        bundle.subarray(44),
        bundleKey,
        bundle.subarray(32, 44),
        Buffer.alloc(0),
      );
      const companionIdentity = payload.subarray(0, 32);
      const identityShared = Curve.sharedKey(primaryIdentity.private, companionIdentity);
      const advSecret = hkdf(
        Buffer.concat([companionShared, identityShared, payload.subarray(64, 96)]),
        32,
        { info: 'adv_secret' },
      );
      await pairSuccess(connection, phone, companionIdentity, Buffer.from(advSecret));
    },
    /**
     * A contact (`from`, phone digits) writes `text` to the linked number `to`: a Signal session
     * is made from the pre-keys the device uploaded, and the message reaches its open connection
     * as WhatsApp delivers it (`pkmsg`), or, with none open, waits for its next login and is
     * handed over then, marked offline (event `waiting`). Resolves with the message id.
     */
    async deliverText({
      to,
      from,
      text,
      pushName,
      sentAt,
    }: {
      to: string;
      from: string;
      text: string;
      pushName?: string;
      /** When the contact sent it (default now). */
      sentAt?: Date;
    }) {
      return deliver(
        to,
        { from: `${from}@s.whatsapp.net`, ...(pushName ? { notify: pushName } : {}) },
        { conversation: text },
        undefined,
        sentAt,
      );
    },
    /**
     * The contact `from`'s phone could not decrypt the message `id` the linked number `to` sent
     * it, and asks for it again (a retry receipt), as WhatsApp relays it to the linked device.
     */
    async askAgain({ to, from, id }: { to: string; from: string; id: string }) {
      const connection = [...connections].find(
        (c) => c.loggedIn && !c.closed && c.hello.kind === 'login' && c.hello.username === to,
      );
      if (!connection) throw new Error(`${to} is not connected`);
      const t = String(Math.floor(Date.now() / 1000));
      await connection.send({
        tag: 'receipt',
        attrs: { from: `${from}@s.whatsapp.net`, id, type: 'retry', t },
        content: [{ tag: 'retry', attrs: { count: '1', id, t, v: '1' } }],
      });
    },
    /**
     * A contact (`from`) sends the linked number `to` a photo or a voice note as WhatsApp does:
     * the file encrypted with a new media key (AES-256-CBC with keys HKDF-derived from it, an
     * HMAC-SHA256 of IV and ciphertext truncated to 10 bytes appended), uploaded to this server's
     * HTTP host, and a message carrying its address, key and hashes, delivered like a text.
     * `upload` changes what is served (a truncated file); `fileLength` what the message declares;
     * `expired` makes the file gone from the media host when the device first fetches it (404), as
     * after WhatsApp's retention: asked for again, the sender's phone uploads it anew (`reupload`)
     * or no longer has it (`gone`), or never answers (`silent`: it is off) (see `answerMediaRetry`).
     */
    async deliverMedia({
      to,
      from,
      kind,
      bytes,
      caption,
      seconds,
      fileLength,
      fileName,
      mimetype,
      upload = (encrypted) => encrypted,
      expired: expiry,
      jpegThumbnail,
    }: {
      to: string;
      from: string;
      kind: 'image' | 'voice' | 'sticker' | 'video' | 'document';
      bytes: Buffer;
      caption?: string;
      seconds?: number;
      fileLength?: number;
      /** A document's name, as its sender's phone gives it. */
      fileName?: string;
      /** The type its sender's phone declares (each kind has WhatsApp's usual one otherwise). */
      mimetype?: string;
      upload?: (encrypted: Buffer) => Buffer;
      expired?: 'reupload' | 'gone' | 'silent';
      /** A video's still, carried in the message as WhatsApp carries it (not encrypted). */
      jpegThumbnail?: Buffer;
    }) {
      const mediaKey = randomBytes(32);
      const keys = Buffer.from(hkdf(mediaKey, 112, { info: `WhatsApp ${MEDIA_KEYS[kind]} Keys` }));
      const iv = keys.subarray(0, 16);
      const cipher = createCipheriv('aes-256-cbc', keys.subarray(16, 48), iv);
      const ciphertext = Buffer.concat([cipher.update(bytes), cipher.final()]);
      const mac = createHmac('sha256', keys.subarray(48, 80))
        .update(Buffer.concat([iv, ciphertext]))
        .digest()
        .subarray(0, 10);
      const encrypted = Buffer.concat([ciphertext, mac]);
      const path = `/mms/${kind}/${randomBytes(12).toString('hex')}`;
      // Named before it is delivered: the device may ask for the file again as soon as it has it.
      const id = expiry ? `3EB0EXP${randomBytes(8).toString('hex').toUpperCase()}` : undefined;
      if (id && expiry)
        expired.set(id, { kind, mediaKey, encrypted: upload(encrypted), phone: expiry });
      else uploads.set(path, upload(encrypted));
      const common = {
        url: `http://127.0.0.1:${port}${path}`,
        mediaKey,
        fileSha256: createHash('sha256').update(bytes).digest(),
        fileEncSha256: createHash('sha256').update(encrypted).digest(),
        fileLength: fileLength ?? bytes.length,
      };
      const message: proto.IMessage =
        kind === 'image'
          ? { imageMessage: { ...common, mimetype: mimetype ?? 'image/jpeg', caption } }
          : kind === 'sticker'
            ? { stickerMessage: { ...common, mimetype: mimetype ?? 'image/webp' } }
            : kind === 'video'
              ? {
                  videoMessage: {
                    ...common,
                    mimetype: mimetype ?? 'video/mp4',
                    caption,
                    seconds,
                    jpegThumbnail,
                  },
                }
              : kind === 'document'
                ? {
                    documentMessage: {
                      ...common,
                      mimetype: mimetype ?? 'application/pdf',
                      fileName,
                      caption,
                    },
                  }
                : {
                    audioMessage: {
                      ...common,
                      mimetype: mimetype ?? 'audio/ogg; codecs=opus',
                      ptt: true,
                      seconds,
                    },
                  };
      return deliver(to, { from: `${from}@s.whatsapp.net` }, message, id);
    },
    /**
     * The contact `from` shares a place or a contact card with the linked number `to`, as a
     * phone sends them: a `locationMessage` (coordinates, name, address) or a `contactMessage`
     * (a name and its vCard). Nothing to download.
     */
    async deliverShared({
      to,
      from,
      location,
      contact,
    }: {
      to: string;
      from: string;
      location?: { latitude: number; longitude: number; name?: string; address?: string };
      contact?: { displayName: string; vcard: string };
    }) {
      const message: proto.IMessage = location
        ? {
            locationMessage: {
              degreesLatitude: location.latitude,
              degreesLongitude: location.longitude,
              name: location.name,
              address: location.address,
            },
          }
        : { contactMessage: contact };
      return deliver(to, { from: `${from}@s.whatsapp.net` }, message);
    },
    /**
     * The contact `from` (phone digits) edits (`text`) or deletes for everyone (`revoke`) its
     * message `id` to the linked number `to`, as a WhatsApp phone sends them: a `protocolMessage`
     * of type MESSAGE_EDIT or REVOKE naming the message by its key from the contact's side
     * (`fromMe`), encrypted like any message. Resolves with the protocol message's own id.
     */
    async deliverChange({
      to,
      from,
      id,
      text,
    }: {
      to: string;
      from: string;
      id: string;
      /** The new text; absent, the message is deleted for everyone. */
      text?: string;
    }) {
      const Type = proto.Message.ProtocolMessage.Type;
      const key = { remoteJid: `${to}@s.whatsapp.net`, fromMe: true, id };
      return deliver(
        to,
        { from: `${from}@s.whatsapp.net`, ...(text === undefined ? {} : { edit: '1' }) },
        {
          protocolMessage:
            text === undefined
              ? { key, type: Type.REVOKE }
              : {
                  key,
                  type: Type.MESSAGE_EDIT,
                  editedMessage: { conversation: text },
                  timestampMs: Date.now(),
                },
        },
      );
    },
    /**
     * The contact `from` (phone digits) reacts with `emoji` ('' takes it back) to the message `id`
     * of its chat with the linked number `to`: its own (`fromMe`) or one the number sent it.
     */
    async deliverReaction({
      to,
      from,
      id,
      emoji,
      ofContact,
    }: {
      to: string;
      from: string;
      id: string;
      emoji: string;
      /** The message reacted to is the contact's own (else one the number sent). */
      ofContact: boolean;
    }) {
      return deliver(
        to,
        { from: `${from}@s.whatsapp.net` },
        {
          reactionMessage: {
            key: {
              remoteJid: `${to}@s.whatsapp.net`,
              fromMe: ofContact,
              id,
            },
            text: emoji,
            senderTimestampMs: Date.now(),
          },
        },
      );
    },
    /**
     * A contact WhatsApp names by its LID writes `text` to the linked number `to`, as WhatsApp
     * delivers it now: from `<lid>@lid` (addressing mode `lid`), with the contact's phone JID as
     * `sender_pn` when `pn` (digits) is given (WhatsApp sends it when the contact's number may be
     * shown), without it otherwise. `lid` defaults to the LID WhatsApp gave the contact `pn`
     * (fakeLidOf). Delivered like deliverText; resolves with the message id.
     */
    async deliverFromLid({
      to,
      lid,
      pn,
      text,
      pushName,
      sentAt,
    }: {
      to: string;
      lid: string;
      pn?: string;
      text: string;
      pushName?: string;
      sentAt?: Date;
    }) {
      return deliver(
        to,
        {
          from: `${lid}@lid`,
          addressing_mode: 'lid',
          ...(pn ? { sender_pn: `${pn}@s.whatsapp.net` } : {}),
          ...(pushName ? { notify: pushName } : {}),
        },
        { conversation: text },
        undefined,
        sentAt,
      );
    },
    /**
     * WhatsApp tells the linked number `phone` that the contact `lid` is the number `pn` (digits
     * both): the linked-profiles notification (`mex`, NotificationLinkedProfilesUpdates), from
     * which Baileys emits `lid-mapping.update`. Resolves once the device acknowledged it.
     */
    async linkedProfile({ phone, lid, pn }: { phone: string; lid: string; pn: string }) {
      const connection = [...connections]
        .reverse()
        .find((c) => !c.closed && c.hello.kind === 'login' && c.hello.username === phone);
      if (!connection) throw new Error(`${phone} is not open`);
      const id = connection.nextId();
      const acked = connection.waitFor(
        (node) => node.tag === 'ack' && node.attrs.id === id,
        'the ack of the linked-profiles notification',
      );
      await connection.send({
        tag: 'notification',
        attrs: {
          from: 's.whatsapp.net',
          type: 'mex',
          id,
          t: String(Math.floor(Date.now() / 1000)),
        },
        content: [
          {
            tag: 'update',
            attrs: { op_name: 'NotificationLinkedProfilesUpdates' },
            content: Buffer.from(
              JSON.stringify({
                data: {
                  xwa2_notify_linked_profiles: {
                    jid: `${lid}@lid`,
                    added_profiles: [`${pn}@s.whatsapp.net`],
                  },
                },
              }),
            ),
          },
        ],
      });
      await acked;
    },
    /**
     * The owner of the linked number `phone` writes `text` to the contact `to` (phone digits) from
     * the phone itself: WhatsApp hands the linked device its own copy, from the number to the
     * contact (`recipient`), the text wrapped in a `deviceSentMessage`. `id` delivers the same
     * message again. Resolves with the message id.
     */
    async deliverOwnCopy({
      phone,
      to,
      text,
      id,
      pushName,
    }: {
      phone: string;
      to: string;
      text: string;
      id?: string;
      pushName?: string;
    }) {
      const contact = `${to}@s.whatsapp.net`;
      return deliver(
        phone,
        {
          from: `${phone}@s.whatsapp.net`,
          recipient: contact,
          ...(pushName ? { notify: pushName } : {}),
        },
        { deviceSentMessage: { destinationJid: contact, message: { conversation: text } } },
        id,
      );
    },
    /**
     * The contact `from` (phone digits) received (`delivered`) or read (`read`) the messages `ids`
     * the linked number `phone` sent it: WhatsApp's `<receipt>` to the number's open connection,
     * the first id on the node and the others in its `<list>`, as WhatsApp batches them.
     */
    async receipt({
      phone,
      from,
      ids,
      status,
    }: {
      phone: string;
      from: string;
      ids: string[];
      status: 'delivered' | 'read';
    }) {
      const connection = [...connections]
        .reverse()
        .find((c) => !c.closed && c.hello.kind === 'login' && c.hello.username === phone);
      if (!connection) throw new Error(`${phone} is not open`);
      const [first, ...others] = ids;
      await connection.send({
        tag: 'receipt',
        attrs: {
          id: first!,
          from: `${from}@s.whatsapp.net`,
          t: String(Math.floor(Date.now() / 1000)),
          ...(status === 'read' ? { type: 'read' } : {}),
        },
        ...(others.length > 0
          ? {
              content: [
                {
                  tag: 'list',
                  attrs: {},
                  content: others.map((id) => ({ tag: 'item', attrs: { id } })),
                },
              ],
            }
          : {}),
      });
    },
    /**
     * WhatsApp refuses the next `count` messages the linked number `phone` sends, with the error
     * `code` in its ack (`count` 0 stops it).
     */
    refuseSends({ phone, count, code }: { phone: string; count: number; code: string }) {
      refusing.set(phone, { count, code });
    },
    /**
     * The next hand-over to the linked number `phone` (at its login) pauses after its first
     * `after` messages until `until` resolves, then hands the rest over and says that was all: a
     * hand-over that outlasts Baileys' 30 s hold of its events.
     */
    pauseHandOver({ phone, after, until }: { phone: string; after: number; until: Promise<void> }) {
      pausing.set(phone, { after, until });
    },
    /** Sends a stream error with `code` on every open connection. */
    async streamErrorAll(code: number) {
      await Promise.all([...connections].map((c) => c.streamError(code)));
    },
    /** Forgets a linked device (the phone unlinked it): its next login fails with 401. */
    unlink(phone: string) {
      linked.delete(phone);
    },
    async close() {
      for (const connection of connections) connection.terminate();
      wss.close();
      for (const socket of sockets) socket.destroy();
      await mediaDownloadDispatcher.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * A file a device uploaded, read as its contact's phone reads it: the keys HKDF-derived from the
 * message's `mediaKey`, the MAC (HMAC-SHA256 of IV and ciphertext, its first 10 bytes) checked,
 * then AES-256-CBC undone. Throws for a file the key does not open.
 */
export function decryptMedia(
  encrypted: Buffer,
  mediaKey: Uint8Array,
  kind: 'image' | 'document',
): Buffer {
  const keys = Buffer.from(
    hkdf(mediaKey, 112, { info: `WhatsApp ${kind === 'image' ? 'Image' : 'Document'} Keys` }),
  );
  const iv = keys.subarray(0, 16);
  const ciphertext = encrypted.subarray(0, encrypted.length - 10);
  const mac = createHmac('sha256', keys.subarray(48, 80))
    .update(Buffer.concat([iv, ciphertext]))
    .digest()
    .subarray(0, 10);
  if (!mac.equals(encrypted.subarray(encrypted.length - 10)))
    throw new Error('the upload is not what its media key says');
  const decipher = createDecipheriv('aes-256-cbc', keys.subarray(16, 48), iv);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

/** The `auth` of this server's `media_conn`: an upload without it is refused. */
const MEDIA_AUTH = 'fake-media-auth';

/**
 * An HTTPS agent that connects without TLS: node's `https` module takes only an HTTPS agent, and
 * this server's media host is plain HTTP.
 */
class PlainHttpsAgent extends HttpsAgent {
  override createConnection(options: NetConnectOpts): Duplex {
    return createConnection(options);
  }
}

/** A message kept for a linked number that was not connected. */
type Waiting = { attrs: Record<string, string>; message: proto.IMessage; id: string; t: number };

type LinkedDevice = {
  registrationId?: number;
  identity?: Uint8Array;
  signedPreKey?: { keyId: number; publicKey: Uint8Array; signature: Uint8Array };
  /** Pre-keys uploaded and not yet used, by id. */
  preKeys: Map<number, Uint8Array>;
};

const bytes = (node: BinaryNode | undefined) =>
  node?.content instanceof Uint8Array ? node.content : new Uint8Array();
const bigEndian = (node: BinaryNode | undefined) => bytes(node).reduce((n, b) => n * 256 + b, 0);

/** Keeps what a device uploads (`<iq xmlns=encrypt type=set>`): its identity, signed pre-key and pre-keys. */
function storeKeyBundle(device: LinkedDevice, node: BinaryNode) {
  const registration = getBinaryNodeChild(node, 'registration');
  if (registration) device.registrationId = bigEndian(registration);
  const identity = getBinaryNodeChild(node, 'identity');
  if (identity) device.identity = bytes(identity);
  const skey = getBinaryNodeChild(node, 'skey');
  if (skey) {
    device.signedPreKey = {
      keyId: bigEndian(getBinaryNodeChild(skey, 'id')),
      publicKey: bytes(getBinaryNodeChild(skey, 'value')),
      signature: bytes(getBinaryNodeChild(skey, 'signature')),
    };
  }
  for (const key of getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'key')) {
    device.preKeys.set(
      bigEndian(getBinaryNodeChild(key, 'id')),
      bytes(getBinaryNodeChild(key, 'value')),
    );
  }
}

type KeyPair32 = { public: Uint8Array; private: Uint8Array };

/** A contact's device: its keys as WhatsApp hands them out, and its own store to read what it gets. */
type Contact = {
  phone: string;
  lid: string;
  registrationId: number;
  identity: KeyPair32;
  signedPreKey: KeyPair32 & { keyId: number; signature: Uint8Array };
  preKey: KeyPair32 & { keyId: number };
  storage: SignalStorage;
};

/** The LID the fake WhatsApp gives the contact with the phone `phone` (digits): `8` and the phone. */
export const fakeLidOf = (phone: string) => `8${phone}`;

function makeContact(phone: string): Contact {
  const identity = Curve.generateKeyPair();
  const signed = Curve.generateKeyPair();
  const preKey = Curve.generateKeyPair();
  const signalPair = (pair: KeyPair32) => ({
    pubKey: Buffer.from(generateSignalPubKey(pair.public)),
    privKey: Buffer.from(pair.private),
  });
  const registrationId = 1000 + (Number(phone.slice(-3)) || 0);
  const sessions = new Map<string, SessionRecord>();
  return {
    phone,
    lid: fakeLidOf(phone),
    registrationId,
    identity,
    signedPreKey: {
      ...signed,
      keyId: 1,
      signature: Curve.sign(identity.private, generateSignalPubKey(signed.public)),
    },
    preKey: { ...preKey, keyId: 1 },
    storage: {
      loadSession: async (id) => sessions.get(id),
      storeSession: async (id, session) => void sessions.set(id, session),
      isTrustedIdentity: () => true,
      // WhatsApp hands out the same one-time key to every asker here: the fake keeps it.
      loadPreKey: async () => signalPair(preKey),
      removePreKey: () => {},
      loadSignedPreKey: () => signalPair(signed),
      getOurRegistrationId: () => registrationId,
      getOurIdentity: () => signalPair(identity),
    },
  };
}

const uint = (value: number, size: number) => {
  const buffer = Buffer.alloc(size);
  buffer.writeUIntBE(value, 0, size);
  return buffer;
};

/** A contact's keys as WhatsApp answers `<iq xmlns=encrypt type=get><key>`. */
function keyBundle(contact: Contact): BinaryNode[] {
  const { signedPreKey, preKey } = contact;
  return [
    { tag: 'registration', attrs: {}, content: uint(contact.registrationId, 4) },
    { tag: 'type', attrs: {}, content: Buffer.from([5]) },
    { tag: 'identity', attrs: {}, content: contact.identity.public },
    {
      tag: 'skey',
      attrs: {},
      content: [
        { tag: 'id', attrs: {}, content: uint(signedPreKey.keyId, 3) },
        { tag: 'value', attrs: {}, content: signedPreKey.public },
        { tag: 'signature', attrs: {}, content: signedPreKey.signature },
      ],
    },
    {
      tag: 'key',
      attrs: {},
      content: [
        { tag: 'id', attrs: {}, content: uint(preKey.keyId, 3) },
        { tag: 'value', attrs: {}, content: preKey.public },
      ],
    },
  ];
}

/** A contact's own Signal store: a fresh identity, sessions in memory. */
function contactStorage(): SignalStorage {
  const pair = Curve.generateKeyPair();
  const identity = {
    privKey: Buffer.from(pair.private),
    pubKey: Buffer.from(generateSignalPubKey(pair.public)),
  };
  const sessions = new Map<string, SessionRecord>();
  return {
    loadSession: async (id) => sessions.get(id),
    storeSession: async (id, session) => void sessions.set(id, session),
    isTrustedIdentity: () => true,
    loadPreKey: async () => undefined,
    removePreKey: () => {},
    loadSignedPreKey: () => identity,
    getOurRegistrationId: () => 4242,
    getOurIdentity: () => identity,
  };
}

async function listen(server: Server): Promise<AddressInfo> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server.address() as AddressInfo;
}
