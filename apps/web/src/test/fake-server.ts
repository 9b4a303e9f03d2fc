import {
  changePasswordSchema,
  completeRegistrationSchema,
  deleteAccountSchema,
  forgotPasswordSchema,
  hireAgentSchema,
  loginSchema,
  myAgentInputSchema,
  renameConversationSchema,
  resetPasswordSchema,
  sendMessageSchema,
  sendOtpSchema,
  shortChatSchema,
  updateProfileSchema,
  type AccountArchiveLink,
  type AccountExport,
  type AgentsResponse,
  type ChangePasswordInput,
  type ChatStreamEvent,
  type CompleteRegistrationInput,
  type DeleteAccountInput,
  type ConversationResponse,
  type ConversationsResponse,
  type DeleteConversationResponse,
  type RenameConversationInput,
  type RenameConversationResponse,
  type ErrorResponse,
  type ForgotPasswordInput,
  type HireAgentInput,
  type HireAgentResponse,
  type LoginInput,
  type MessageResponse,
  type MyAgentDocument,
  type MyAgentDocumentsResponse,
  type MyAgentInput,
  type MyAgentReply,
  type MyAgentResponse,
  type MyAgentsResponse,
  type ProfileResponse,
  type ResetPasswordInput,
  type SendMessageInput,
  type ShortChatInput,
  type ShortChatResponse,
  type SendMessageResponse,
  type SendOtpInput,
  type SessionResponse,
  type SessionsResponse,
  type UpdateProfileInput,
  type UpdateProfileResponse,
  type UserResponse,
  type UserStatsResponse,
} from '@contrateia/shared';
import {
  activeStatusSchema,
  adminChatTestSchema,
  adminUserRoleSchema,
  aiSettingsInputSchema,
  createAgentSchema,
  createSingleAgentUserSchema,
  updateAgentSchema,
  type ActiveStatusInput,
  type AdminAgentResponse,
  type AdminAgentsResponse,
  type AdminAuditResponse,
  type AdminChatTestInput,
  type AdminChatTestResponse,
  type AdminUserResponse,
  type AdminUserRoleInput,
  type AdminUsersResponse,
  type AiSettings,
  type AiSettingsInput,
  type AiTestResponse,
  type CreateAgentInput,
  type CreateSingleAgentUserInput,
  type UpdateAgentInput,
} from '@contrateia/shared/admin/admin.schemas';
import type { ListLogsResponse } from '@contrateia/shared/logs/logs.schemas';
import {
  contentSettingsSchema,
  defaultSettings,
  publicSettingsOf,
  systemSettingsSchema,
  themeSettingsSchema,
  type AdminSettingsResponse,
  type ContentSettings,
  type PublicSettings,
  type SystemSettings,
  type ThemeSettings,
} from '@contrateia/shared/settings/settings.schemas';
import {
  assignAgentSchema,
  sendWhatsAppMessageSchema,
  sendWhatsAppMediaFieldsSchema,
  toggleAiSchema,
  whatsappSettingsSchema,
  WHATSAPP_PAGE_DEFAULT,
  WHATSAPP_PAGE_MAX,
  whitelistSchema,
  blockSchema,
  pairingCodeRequestSchema,
  type WhatsAppAgent,
  type WhatsAppConversation,
  type WhatsAppConversationDetail,
  type WhatsAppMessage,
  type WhatsAppSettingsInput,
  type WhatsAppPlatform,
  type WhatsAppStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import type {
  MonitorActionResponse,
  MonitorStatus,
} from '@contrateia/shared/monitor/monitor.schemas';
import {
  imageUploadFieldsSchema,
  updateImageSchema,
  type deleteImageResponseSchema,
  type ImageResponse,
  type ImageStatsResponse,
  type ImageUploadResponse,
  type ListImagesResponse,
  type UpdateImageInput,
} from '@contrateia/shared/images/images.schemas';
import { getConfig } from '@testing-library/react';
import { onTestFinished, vi } from 'vitest';
import type { z } from 'zod';
import { fakeXhrClass, type XhrRequest } from '@/test/fake-xhr';

/**
 * A stand-in for the API at the HTTP boundary: `globalThis.fetch` answers the way the server's
 * routes do (apps/server/src/features/*\/*.routes.ts), with the shared payload types, and every
 * request is recorded so a test can check what the page sent. Nothing of the app is mocked.
 */

/** The WhatsApp calls' envelope (whatsapp.schemas.ts). */
interface Data<T> {
  success: true;
  data: T;
}

/** A paged WhatsApp read's envelope: the page, and the cursor to the next one (null on the last). */
export interface Paged<T> extends Data<T> {
  nextCursor: string | null;
}

/** `?limit=` as the server takes it: 50 unless asked, 1 to 200; undefined for anything else (a 400). */
function pageLimit(url: string): number | undefined {
  const asked = new URL(url, 'http://x').searchParams.get('limit');
  if (asked === null) return WHATSAPP_PAGE_DEFAULT;
  const limit = Number(asked);
  return Number.isInteger(limit) && limit >= 1 && limit <= WHATSAPP_PAGE_MAX ? limit : undefined;
}

const cursorOf = (url: string) => new URL(url, 'http://x').searchParams.get('cursor');
const badPage = () =>
  errorResponse(400, { message: 'Validation error', errors: { cursor: 'Invalid cursor' } });

/**
 * A page of the conversation list as whatsapp.routes.ts answers `url`: `all` is the list newest
 * first; the cursor is the id of the page's last conversation (the server's is a keyset too).
 */
export function conversationsPage(
  all: WhatsAppConversation[],
  url: string,
): Paged<WhatsAppConversation[]> | Response {
  const limit = pageLimit(url);
  const cursor = cursorOf(url);
  const start = cursor === null ? 0 : all.findIndex((c) => c.id === cursor) + 1;
  if (limit === undefined || start < 0 || (cursor !== null && start === 0)) return badPage();
  const data = all.slice(start, start + limit).map((c) => ({ ...c }));
  const more = start + limit < all.length;
  return { success: true, data, nextCursor: more ? data.at(-1)!.id : null };
}

/**
 * A conversation with a page of `messages` (oldest first, as stored) as the server answers
 * `url`: the newest `limit` older than the cursor, oldest first; the cursor is the position of
 * the page's oldest message (messages only ever come after it).
 */
export function conversationPage(
  conversation: WhatsAppConversation,
  messages: WhatsAppMessage[],
  url: string,
): Paged<WhatsAppConversationDetail> | Response {
  const limit = pageLimit(url);
  const cursor = cursorOf(url);
  const end = cursor === null ? messages.length : Number(cursor);
  if (limit === undefined || !Number.isInteger(end) || end < 0 || end > messages.length)
    return badPage();
  const start = Math.max(0, end - limit);
  return {
    success: true,
    data: { ...conversation, messages: messages.slice(start, end) },
    nextCursor: start > 0 ? String(start) : null,
  };
}

/** The endpoints the tested pages call: what the client sends and what a success answers. */
interface Endpoints {
  'GET /api/whatsapp/status': { body: undefined; answer: Data<WhatsAppStatus> };
  'POST /api/whatsapp/connect': { body: undefined; answer: Data<WhatsAppStatus> };
  'POST /api/whatsapp/disconnect': { body: undefined; answer: Data<WhatsAppStatus> };
  'POST /api/whatsapp/pairing-code': { body: { phone: string }; answer: Data<WhatsAppStatus> };
  'GET /api/whatsapp/conversations': { body: undefined; answer: Paged<WhatsAppConversation[]> };
  'GET /api/whatsapp/conversations/:id': {
    body: undefined;
    answer: Paged<WhatsAppConversationDetail>;
  };
  'DELETE /api/whatsapp/conversations/:id': { body: undefined; answer: Data<unknown> };
  'POST /api/whatsapp/conversations/:id/ai': {
    body: { enabled: boolean };
    answer: Data<WhatsAppConversation>;
  };
  'POST /api/whatsapp/conversations/:id/whitelist': {
    body: { isWhitelisted: boolean };
    answer: Data<WhatsAppConversation>;
  };
  'POST /api/whatsapp/conversations/:id/block': {
    body: { blocked: boolean };
    answer: Data<WhatsAppConversation>;
  };
  'POST /api/whatsapp/conversations/:id/assign-agent': {
    body: { agentId: string | null };
    answer: Data<WhatsAppConversation>;
  };
  'POST /api/whatsapp/conversations/:id/messages': {
    body: { text: string };
    answer: Data<WhatsAppMessage>;
  };
  /** Multipart, sent with XMLHttpRequest (fake-xhr.ts): the `file` part and its `caption`. */
  'POST /api/whatsapp/conversations/:id/media': {
    body: FormData;
    answer: Data<WhatsAppMessage>;
  };
  'POST /api/whatsapp/conversations/:id/messages/:messageId/retry': {
    body: Record<string, never>;
    answer: Data<WhatsAppMessage>;
  };
  'GET /api/whatsapp/agents/available': { body: undefined; answer: Data<WhatsAppAgent[]> };
  'POST /api/whatsapp/settings': { body: WhatsAppSettingsInput; answer: Data<WhatsAppStatus> };
  'POST /api/login': { body: LoginInput; answer: SessionResponse };
  'POST /api/send-otp': { body: SendOtpInput; answer: MessageResponse };
  'POST /api/complete-registration': { body: CompleteRegistrationInput; answer: MessageResponse };
  'GET /api/user': { body: undefined; answer: UserResponse };
  'GET /api/agents/user': { body: undefined; answer: AgentsResponse };
  'GET /api/agents/available': { body: undefined; answer: AgentsResponse };
  'GET /api/stats': { body: undefined; answer: UserStatsResponse };
  'POST /api/agents/hire': { body: HireAgentInput; answer: HireAgentResponse };
  'GET /api/my-agents': { body: undefined; answer: MyAgentsResponse };
  'POST /api/my-agents': { body: MyAgentInput; answer: MyAgentReply };
  'GET /api/my-agents/:id': { body: undefined; answer: MyAgentResponse };
  'PUT /api/my-agents/:id': { body: MyAgentInput; answer: MyAgentReply };
  'DELETE /api/my-agents/:id': { body: undefined; answer: MyAgentReply };
  'GET /api/my-agents/:id/documents': { body: undefined; answer: MyAgentDocumentsResponse };
  /** Multipart, sent with XMLHttpRequest (fake-xhr.ts): the `file` part; answered with 201. */
  'POST /api/my-agents/:id/documents': { body: FormData; answer: MyAgentDocument };
  /** Answered with an empty 204. */
  'DELETE /api/my-agents/:id/documents/:documentId': { body: undefined; answer: null };
  'GET /api/chat/conversations': { body: undefined; answer: ConversationsResponse };
  'GET /api/chat/conversations/:id': { body: undefined; answer: ConversationResponse };
  'PATCH /api/chat/conversations/:id': {
    body: RenameConversationInput;
    answer: RenameConversationResponse;
  };
  'DELETE /api/chat/conversations/:id': { body: undefined; answer: DeleteConversationResponse };
  /** The JSON form; the streamed form answers with `eventStream()`. */
  'POST /api/chat/message': { body: SendMessageInput; answer: SendMessageResponse };
  /** The dashboard's short form; streamed (`eventStream()`) as the message endpoint is. */
  'POST /api/chat': { body: ShortChatInput; answer: ShortChatResponse };
  'POST /api/forgot-password': { body: ForgotPasswordInput; answer: MessageResponse };
  'POST /api/reset-password': { body: ResetPasswordInput; answer: MessageResponse };
  'GET /api/profile': { body: undefined; answer: ProfileResponse };
  'PATCH /api/profile': { body: UpdateProfileInput; answer: UpdateProfileResponse };
  'POST /api/change-password': { body: ChangePasswordInput; answer: MessageResponse };
  'GET /api/sessions': { body: undefined; answer: SessionsResponse };
  'POST /api/sessions/revoke-others': { body: undefined; answer: MessageResponse };
  'GET /api/account/export': { body: undefined; answer: AccountExport };
  'POST /api/account/export/archive-link': { body: undefined; answer: AccountArchiveLink };
  'POST /api/account/delete': { body: DeleteAccountInput; answer: MessageResponse };
  'GET /api/settings/public': { body: undefined; answer: PublicSettings };
  'GET /api/admin/agents': { body: undefined; answer: AdminAgentsResponse };
  'POST /api/admin/agents': { body: CreateAgentInput; answer: AdminAgentResponse };
  'PUT /api/admin/agents/:id': { body: UpdateAgentInput; answer: AdminAgentResponse };
  'PATCH /api/admin/agents/:id/status': { body: ActiveStatusInput; answer: AdminAgentResponse };
  'DELETE /api/admin/agents/:id': { body: undefined; answer: MessageResponse };
  'POST /api/admin/chat/test': { body: AdminChatTestInput; answer: AdminChatTestResponse };
  /** With `?search=&limit=&offset=` in the request's url. */
  'GET /api/admin/users': { body: undefined; answer: AdminUsersResponse };
  'POST /api/admin/users/single-agent': {
    body: CreateSingleAgentUserInput;
    answer: AdminUserResponse;
  };
  'POST /api/admin/users/:id/status': { body: ActiveStatusInput; answer: AdminUserResponse };
  'POST /api/admin/users/:id/role': { body: AdminUserRoleInput; answer: AdminUserResponse };
  /** With `?limit=&offset=` in the request's url. */
  'GET /api/admin/audit': { body: undefined; answer: AdminAuditResponse };
  'GET /api/admin/ai': { body: undefined; answer: AiSettings };
  /** With `?level=&category=&from=&to=&search=&cursor=` in the request's url. */
  'GET /api/logs': { body: undefined; answer: ListLogsResponse };
  'POST /api/admin/ai': { body: AiSettingsInput; answer: AiSettings };
  'POST /api/admin/ai/test': { body: AiSettingsInput; answer: AiTestResponse };
  'POST /api/logout': { body: undefined; answer: MessageResponse };
  'GET /api/admin/settings': { body: undefined; answer: AdminSettingsResponse };
  'GET /api/admin/whatsapp/platform': { body: undefined; answer: Data<WhatsAppPlatform> };
  'POST /api/admin/settings/content': { body: ContentSettings; answer: ContentSettings };
  'POST /api/admin/settings/theme': { body: ThemeSettings; answer: ThemeSettings };
  'POST /api/admin/settings/system': { body: SystemSettings; answer: SystemSettings };
  'GET /api/monitor/status': { body: undefined; answer: MonitorStatus };
  /** `:action` is one of MONITOR_ACTIONS; no body. */
  'POST /api/monitor/actions/:action': { body: undefined; answer: MonitorActionResponse };
  /** With `?category=&isPublic=&search=&limit=&offset=` in the request's url. */
  'GET /api/images': { body: undefined; answer: ListImagesResponse };
  'GET /api/images/stats': { body: undefined; answer: ImageStatsResponse };
  /** Multipart, sent with XMLHttpRequest (fake-xhr.ts): the `image` file and the text fields. */
  'POST /api/images/upload': { body: FormData; answer: ImageUploadResponse };
  'PUT /api/images/:id': { body: UpdateImageInput; answer: ImageResponse };
  'DELETE /api/images/:id': {
    body: undefined;
    answer: z.infer<typeof deleteImageResponseSchema>;
  };
}

/** The public settings as the server answers them before an admin changed anything. */
export function defaultPublicSettings(): PublicSettings {
  return publicSettingsOf(defaultSettings());
}

/**
 * Read by the signed-out pages in the background (texts, registration, maintenance): answered
 * with the defaults unless a test says otherwise, and left out of `calls()`, which lists what a
 * page did.
 */
const PUBLIC_SETTINGS = 'GET /api/settings/public';

export type Endpoint = keyof Endpoints;

/**
 * The server validates these bodies with the same shared schemas. A page never sends one that
 * fails (its forms validate first), so one that does fails the test rather than getting a 400.
 */
const BODY_SCHEMAS: Partial<Record<Endpoint, z.ZodType>> = {
  'POST /api/login': loginSchema,
  'POST /api/send-otp': sendOtpSchema,
  'POST /api/complete-registration': completeRegistrationSchema,
  'POST /api/agents/hire': hireAgentSchema,
  'POST /api/my-agents': myAgentInputSchema,
  'PUT /api/my-agents/:id': myAgentInputSchema,
  'POST /api/chat/message': sendMessageSchema,
  'POST /api/chat': shortChatSchema,
  'PATCH /api/chat/conversations/:id': renameConversationSchema,
  'POST /api/forgot-password': forgotPasswordSchema,
  'POST /api/reset-password': resetPasswordSchema,
  'PATCH /api/profile': updateProfileSchema,
  'POST /api/change-password': changePasswordSchema,
  'POST /api/account/delete': deleteAccountSchema,
  'POST /api/whatsapp/conversations/:id/ai': toggleAiSchema,
  'POST /api/whatsapp/conversations/:id/whitelist': whitelistSchema,
  'POST /api/whatsapp/conversations/:id/block': blockSchema,
  'POST /api/whatsapp/pairing-code': pairingCodeRequestSchema,
  'POST /api/whatsapp/conversations/:id/assign-agent': assignAgentSchema,
  'POST /api/whatsapp/conversations/:id/messages': sendWhatsAppMessageSchema,
  'POST /api/whatsapp/conversations/:id/media': sendWhatsAppMediaFieldsSchema,
  'POST /api/whatsapp/settings': whatsappSettingsSchema,
  'POST /api/admin/agents': createAgentSchema,
  'PUT /api/admin/agents/:id': updateAgentSchema,
  'PATCH /api/admin/agents/:id/status': activeStatusSchema,
  'POST /api/admin/chat/test': adminChatTestSchema,
  'POST /api/admin/users/single-agent': createSingleAgentUserSchema,
  'POST /api/admin/users/:id/status': activeStatusSchema,
  'POST /api/admin/users/:id/role': adminUserRoleSchema,
  'POST /api/admin/ai': aiSettingsInputSchema,
  'POST /api/admin/ai/test': aiSettingsInputSchema,
  'POST /api/admin/settings/content': contentSettingsSchema,
  'POST /api/admin/settings/theme': themeSettingsSchema,
  'POST /api/admin/settings/system': systemSettingsSchema,
  // A multipart body is checked by its text fields (the file part aside).
  'POST /api/images/upload': imageUploadFieldsSchema,
  'PUT /api/images/:id': updateImageSchema,
};

export interface ServerRequest<Body = unknown> {
  method: string;
  /** Path and query, e.g. `/api/chat/conversations?agentName=guia`. */
  url: string;
  headers: Headers;
  /** The JSON body as sent, or the FormData of a multipart one. */
  body: Body;
  /** Aborted when the page gives up on the request. */
  signal: AbortSignal;
  /**
   * Only for a request sent with XMLHttpRequest (an upload): reports that `loaded` bytes of its
   * body have gone out, as the browser's upload progress events do.
   */
  uploadProgress?: (loaded: number) => void;
}

/** A success body (sent as JSON with 200), or any Response, e.g. `errorResponse()`. */
export type Answer<E extends Endpoint> = Endpoints[E]['answer'] | Response;

type Handler<E extends Endpoint> = (
  request: ServerRequest<Endpoints[E]['body']>,
) => Answer<E> | Promise<Answer<E>>;

/** A request held open until the test answers it. */
export interface HeldRequest<E extends Endpoint> {
  request: ServerRequest<Endpoints[E]['body']>;
  respond(answer: Answer<E>): void;
}

export interface HeldEndpoint<E extends Endpoint> {
  /** The next request to arrive (or the oldest one not yet taken). */
  next(): Promise<HeldRequest<E>>;
}

export interface FakeServer {
  /** Every request, in the order the page sent them. */
  readonly requests: ServerRequest[];
  /** `"METHOD /path?query"` of every request, for exact assertions. */
  calls(): string[];
  /** Answers every request to `endpoint` with `handler`, replacing any earlier one. */
  on<E extends Endpoint>(endpoint: E, handler: Handler<E>): void;
  /** Leaves requests to `endpoint` pending until the test responds to each one. */
  hold<E extends Endpoint>(endpoint: E): HeldEndpoint<E>;
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

// Taken before any test can fake the timers: the wait for a held request keeps real time.
const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

/** The server's error shape (plugins/errors.ts): `{success: false, message, errors?}`. */
export function errorResponse(status: number, error: Omit<ErrorResponse, 'success'>): Response {
  return jsonResponse({ success: false, ...error } satisfies ErrorResponse, status);
}

function matches(pattern: string, method: string, pathname: string): boolean {
  const [patternMethod, patternPath = ''] = pattern.split(' ');
  if (patternMethod !== method) return false;
  const want = patternPath.split('/');
  const got = pathname.split('/');
  return (
    want.length === got.length &&
    want.every((segment, i) => segment.startsWith(':') || segment === got[i])
  );
}

function readBody(body: RequestInit['body']): unknown {
  if (body === undefined || body === null) return undefined;
  if (body instanceof FormData) return body;
  if (typeof body !== 'string')
    throw new Error('The fake server reads JSON or FormData bodies only');
  return JSON.parse(body) as unknown;
}

/** What a body schema checks: the JSON, or a multipart body's text fields. */
function checkedFields(body: unknown): unknown {
  if (!(body instanceof FormData)) return body;
  return Object.fromEntries(
    [...body.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Replaces `fetch` and `XMLHttpRequest` (fake-xhr.ts: uploads) for the current test (the setup
 * file restores them) and returns the server. Requests to an endpoint with no handler get the
 * server's JSON 404 and fail the test.
 */
export function startFakeServer(): FakeServer {
  const requests: ServerRequest[] = [];
  const handlers: { endpoint: Endpoint; handler: Handler<Endpoint> }[] = [];
  const problems: string[] = [];

  onTestFinished(() => {
    if (problems.length > 0) throw new Error(`Fake server:\n${problems.join('\n')}`);
  });

  /** Answers a request as the handler registered for its endpoint does. */
  const dispatch = async (request: ServerRequest): Promise<Response> => {
    requests.push(request);
    const { pathname } = new URL(request.url, window.location.href);
    const route = handlers.find(({ endpoint }) => matches(endpoint, request.method, pathname));
    if (!route) {
      problems.push(`no handler for ${request.method} ${request.url}`);
      return errorResponse(404, { message: 'Not found' });
    }
    const schema = BODY_SCHEMAS[route.endpoint];
    const parsed = schema?.safeParse(checkedFields(request.body));
    if (parsed && !parsed.success) {
      problems.push(
        `invalid body for ${route.endpoint}: ${JSON.stringify(checkedFields(request.body))}`,
      );
      return errorResponse(400, { message: 'Validation error' });
    }
    // Like fetch: an abort before the answer rejects with the signal's reason.
    const answer = await Promise.race([
      Promise.resolve(route.handler(request as ServerRequest<never>)),
      aborted(request.signal),
    ]);
    return answer instanceof Response ? answer : jsonResponse(answer);
  };

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== 'string') throw new Error('The fake server expects fetch(url, init)');
    const url = new URL(input, window.location.href);
    return dispatch({
      method: init.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      headers: new Headers(init.headers),
      body: readBody(init.body),
      signal: init.signal ?? new AbortController().signal,
    });
  };
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal(
    'XMLHttpRequest',
    fakeXhrClass((request: XhrRequest) => {
      const url = new URL(request.url, window.location.href);
      return dispatch({ ...request, url: `${url.pathname}${url.search}` });
    }),
  );

  const on = <E extends Endpoint>(endpoint: E, handler: Handler<E>) => {
    const index = handlers.findIndex((route) => route.endpoint === endpoint);
    if (index >= 0) handlers.splice(index, 1);
    handlers.push({ endpoint, handler: handler as unknown as Handler<Endpoint> });
  };

  on(PUBLIC_SETTINGS, () => defaultPublicSettings());

  return {
    requests,
    calls: () =>
      requests
        .map((request) => `${request.method} ${request.url}`)
        .filter((call) => call !== PUBLIC_SETTINGS),
    on,
    hold<E extends Endpoint>(endpoint: E): HeldEndpoint<E> {
      const arrived: HeldRequest<E>[] = [];
      const waiting: ((held: HeldRequest<E>) => void)[] = [];
      on(endpoint, (request) => {
        return new Promise<Answer<E>>((resolve) => {
          const held = { request, respond: resolve };
          const waiter = waiting.shift();
          if (waiter) waiter(held);
          else arrived.push(held);
        });
      });
      const nextArrival = () =>
        new Promise<HeldRequest<E>>((resolve, reject) => {
          const held = arrived.shift();
          if (held) return resolve(held);
          const timeout = getConfig().asyncUtilTimeout;
          const waiter = (next: HeldRequest<E>) => {
            realClearTimeout(timer);
            resolve(next);
          };
          const timer = realSetTimeout(() => {
            waiting.splice(waiting.indexOf(waiter), 1);
            reject(new Error(`No ${endpoint} request arrived within ${timeout} ms`));
          }, timeout);
          waiting.push(waiter);
        });
      return {
        // Awaited as Testing Library awaits its own waits, so the page's updates meanwhile are
        // not reported as happening outside act().
        next: () => getConfig().asyncWrapper(nextArrival),
      };
    },
  };
}

/** A streamed chat reply that the test writes event by event. */
export interface EventStream {
  /** The answer to give the request: 200, `text/event-stream`. */
  response: Response;
  /** Writes one event the way chat.routes.ts does: `event: <name>\ndata: <json>\n\n`. */
  send(event: ChatStreamEvent): void;
  /** Ends the response, as the server does after `done` or `error`. */
  end(): void;
}

/**
 * The server-sent-events answer of `POST /api/chat/message` with `Accept: text/event-stream`.
 * If the page aborts the request, the body fails with the abort reason, as fetch's does.
 */
export function eventStream(request: ServerRequest): EventStream {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      open = false;
    },
  });
  request.signal.addEventListener(
    'abort',
    () => {
      if (!open) return;
      open = false;
      controller.error(request.signal.reason);
    },
    { once: true },
  );
  return {
    response: new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
    }),
    send(event) {
      if (!open) throw new Error('The stream is closed');
      controller.enqueue(
        encoder.encode(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`),
      );
    },
    end() {
      if (!open) return;
      open = false;
      controller.close();
    },
  };
}
