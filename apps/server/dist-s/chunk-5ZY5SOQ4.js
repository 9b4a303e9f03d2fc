// ../../packages/shared/src/auth/auth.schemas.ts
import isEmail from "validator/lib/isEmail.js";
import { z } from "zod";

// ../../packages/shared/src/i18n/languages.ts
var LANGUAGES = ["pt-BR", "en-US", "es-ES"];
function languageFromTag(tag) {
  const primary = tag.trim().toLowerCase().split("-")[0];
  if (primary === "pt") return "pt-BR";
  if (primary === "en") return "en-US";
  if (primary === "es") return "es-ES";
  return void 0;
}
var DEFAULT_BRAND_DOMAINS = "pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com";

// ../../packages/shared/src/auth/auth.schemas.ts
var NAME_MIN = 2;
var NAME_MAX = 100;
var EMAIL_MAX = 254;
var PASSWORD_MIN = 6;
var PASSWORD_MAX = 128;
var OTP_LENGTH = 6;
var OTP_RESEND_SECONDS = 60;
var OTP_TTL_MINUTES = 10;
var OTP_MAX_ATTEMPTS = 5;
var SESSION_TIMEOUT_MINUTES = 30;
var SESSION_MAX_AGE_DAYS = 30;
var EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
var INVISIBLE = new RegExp("\\p{C}", "u");
var writtenOnce = (v) => !INVISIBLE.test(v) && v.normalize("NFKC") === v;
var roleSchema = z.enum(["admin", "user"]);
var deliverable = (v) => isEmail(v, { require_tld: true, allow_ip_domain: false, allow_utf8_local_part: true, blacklisted_chars: '"' });
var emailSchema = z.string({ error: "validation.emailRequired" }).trim().min(1, "validation.emailRequired").max(EMAIL_MAX, "validation.emailTooLong").refine(writtenOnce, { message: "validation.emailInvalid", abort: true }).toLowerCase().refine(deliverable, "validation.emailInvalid");
var nameSchema = z.string({ error: "validation.nameRequired" }).trim().min(NAME_MIN, "validation.nameRequired").max(NAME_MAX, "validation.nameTooLong");
var passwordSchema = z.string({ error: "validation.passwordRequired" }).min(1, "validation.passwordRequired").min(PASSWORD_MIN, "validation.passwordTooShort").max(PASSWORD_MAX, "validation.passwordTooLong");
var otpSchema = z.string({ error: "validation.otpRequired" }).trim().min(1, "validation.otpRequired").length(OTP_LENGTH, "validation.otpLength").regex(/^[0-9]+$/, "validation.otpDigits");
var loginSchema = z.object({
  email: z.string({ error: "validation.identifierRequired" }).trim().min(1, "validation.identifierRequired").max(EMAIL_MAX, "validation.identifierTooLong").refine((v) => !v.includes("@") || writtenOnce(v) && EMAIL_PATTERN.test(v), "validation.emailInvalid").toLowerCase(),
  password: z.string({ error: "validation.passwordRequired" }).min(1, "validation.passwordRequired").max(PASSWORD_MAX, "validation.passwordTooLong")
});
var registerFormSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  confirmPassword: z.string({ error: "validation.confirmPasswordRequired" }).min(1, "validation.confirmPasswordRequired")
}).refine((v) => v.confirmPassword === "" || v.password === v.confirmPassword, {
  message: "validation.passwordsDoNotMatch",
  path: ["confirmPassword"]
});
var verifyFormSchema = z.object({ otp: otpSchema });
var otpPurposeSchema = z.enum(["registration"]);
var sendOtpSchema = z.object({
  email: emailSchema,
  purpose: otpPurposeSchema
});
var completeRegistrationSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  otp: otpSchema
});
var switchRoleSchema = z.object({ targetRole: roleSchema });
var userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  role: roleSchema,
  originalRole: roleSchema
});
var messageResponseSchema = z.object({
  success: z.boolean(),
  message: z.string()
});
var sessionResponseSchema = messageResponseSchema.extend({
  user: userSchema,
  token: z.string()
});
var userResponseSchema = z.object({ user: userSchema });
var USER_AGENT_MAX = 512;
var languageSchema = z.enum(LANGUAGES, { error: "validation.languageInvalid" });
var existingPasswordSchema = (required) => z.string({ error: required }).min(1, required).max(PASSWORD_MAX, "validation.passwordTooLong");
var confirmPasswordSchema = z.string({ error: "validation.confirmPasswordRequired" }).min(1, "validation.confirmPasswordRequired");
var updateProfileSchema = z.object({
  name: nameSchema,
  /** Kept on the account: mails (a forgotten-password code) are written in it. */
  language: languageSchema
});
var profileResponseSchema = z.object({ user: userSchema, language: languageSchema });
var updateProfileResponseSchema = messageResponseSchema.extend({ user: userSchema, language: languageSchema });
var changePasswordSchema = z.object({
  currentPassword: existingPasswordSchema("validation.currentPasswordRequired"),
  newPassword: passwordSchema,
  confirmPassword: confirmPasswordSchema
}).refine((v) => v.newPassword === v.confirmPassword, {
  message: "validation.passwordsDoNotMatch",
  path: ["confirmPassword"]
});
var sessionInfoSchema = z.object({
  id: z.string(),
  /** e.g. "Firefox 128", null when the User-Agent named none. */
  browser: z.string().nullable(),
  /** e.g. "Android 14", "Windows 10". */
  os: z.string().nullable(),
  deviceType: z.enum(["desktop", "mobile", "tablet", "other"]),
  /** ISO 8601. */
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean()
});
var sessionsResponseSchema = z.object({ sessions: z.array(sessionInfoSchema) });
var forgotPasswordSchema = z.object({ email: emailSchema });
var resetPasswordSchema = z.object({
  email: emailSchema,
  otp: otpSchema,
  password: passwordSchema,
  confirmPassword: confirmPasswordSchema
}).refine((v) => v.password === v.confirmPassword, {
  message: "validation.passwordsDoNotMatch",
  path: ["confirmPassword"]
});
var deleteAccountSchema = z.object({ password: existingPasswordSchema("validation.passwordRequired") });
var accountExportSchema = z.object({
  exportedAt: z.string(),
  account: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    role: roleSchema,
    language: languageSchema,
    createdAt: z.string()
  }),
  sessions: z.array(sessionInfoSchema.omit({ current: true })),
  hires: z.array(z.object({ agentName: z.string(), displayName: z.string() })),
  conversations: z.array(
    z.object({
      id: z.string(),
      agentName: z.string(),
      createdAt: z.string(),
      messages: z.array(
        z.object({ id: z.string(), text: z.string(), sender: z.enum(["user", "bot"]), timestamp: z.string() })
      )
    })
  )
});

// ../../packages/shared/src/system/system.schemas.ts
import { z as z2 } from "zod";
var errorResponseSchema = z2.object({
  success: z2.literal(false),
  message: z2.string(),
  errors: z2.record(z2.string(), z2.string()).optional()
});
var healthResponseSchema = z2.object({
  status: z2.literal("ok"),
  database: z2.enum(["pglite", "postgres"]),
  version: z2.string()
});

// ../../packages/shared/src/locales/en-US.json
var en_US_default = {
  validation: {
    identifierRequired: "Username or email is required",
    identifierTooLong: "Username or email is too long",
    emailRequired: "Email is required",
    emailInvalid: "Please enter a valid email address",
    emailTooLong: "Email address is too long",
    nameRequired: "First name is required",
    nameTooLong: "Name must be at most 100 characters",
    passwordRequired: "Password is required",
    passwordTooShort: "Password must be at least 6 characters",
    passwordTooLong: "Password must be at most 128 characters",
    confirmPasswordRequired: "Password confirmation is required",
    passwordsDoNotMatch: "Passwords do not match",
    otpRequired: "Please enter the verification code from your email",
    otpLength: "Verification code must be exactly 6 digits",
    otpDigits: "Verification code must contain only numbers (0-9)",
    invalidValue: "Invalid value",
    agentNameRequired: "Agent name is required",
    agentNameInvalid: "Invalid agent name",
    agentIdRequired: "Agent is required",
    messageRequired: "Please type a message",
    messageTooLong: "Messages can have at most 4,000 characters",
    conversationIdInvalid: "Invalid conversation",
    titleRequired: "Please enter a title",
    titleTooLong: "Titles can have at most 100 characters",
    titleInvalid: "Titles can only hold plain text: no line breaks, hidden characters or HTML tags",
    searchTooLong: "Searches can have at most 200 characters",
    languageInvalid: "Please choose one of the available languages",
    currentPasswordRequired: "Current password is required",
    booleanRequired: "Please choose yes or no",
    agentIdInvalid: "Invalid agent",
    whatsappMessageTooLong: "WhatsApp messages can have at most 4,096 characters",
    phoneInvalid: "Enter the number with its country code, digits only (10 to 15)",
    jidInvalid: "Invalid WhatsApp address"
  },
  errors: {
    validation: "Validation error",
    malformedJson: "The request body is not valid JSON",
    unsupportedMediaType: "Unsupported content type",
    unauthorized: "Unauthorized",
    forbidden: "Access denied",
    notFound: "Not found",
    payloadTooLarge: "The request body is too large (maximum 1 MB)",
    tooManyRequests_one: "Too many requests. Please try again in {{count}} second.",
    tooManyRequests_other: "Too many requests. Please try again in {{count}} seconds.",
    server: "Server error",
    mailUnavailable: "We could not send the e-mail right now. Please try again in a moment.",
    invalidCharacters: "The request contains characters that are not allowed",
    unavailable: "The service is temporarily unavailable. Please try again in a moment.",
    badRequest: "The request is not valid",
    uriTooLong: "The address is too long",
    headersTooLarge: "The request headers are too large",
    requestTimeout: "The request took too long to arrive. Please try again."
  },
  auth: {
    otpSent: "If this address can register, a code is on its way to {{email}}",
    otpCooldown_one: "Please wait {{count}} second before requesting a new OTP",
    otpCooldown_other: "Please wait {{count}} seconds before requesting a new OTP",
    otpDailyLimit_one: "Too many codes were sent to this address. Please try again in {{count}} hour.",
    otpDailyLimit_other: "Too many codes were sent to this address. Please try again in {{count}} hours.",
    otpInvalid: "Invalid OTP. Please check the code and try again.",
    otpExpired: "This OTP has expired. Please request a new code.",
    otpAttemptsExhausted: "Too many wrong OTP attempts. Please request a new code.",
    otpMissing: "No valid OTP for this email. Please request a new code.",
    emailTaken: "An account with this email already exists. Please sign in.",
    registered: "Registration successful! Please sign in with your new account.",
    invalidCredentials: "Invalid username/email or password",
    loginSuccess: "Welcome back, {{name}}!",
    loginThrottled_one: "Too many failed sign-in attempts. Please try again in {{count}} minute.",
    loginThrottled_other: "Too many failed sign-in attempts. Please try again in {{count}} minutes.",
    loginThrottledSeconds_one: "Too many failed sign-in attempts. Please try again in {{count}} second.",
    loginThrottledSeconds_other: "Too many failed sign-in attempts. Please try again in {{count}} seconds.",
    loggedOut: "You have been signed out",
    alreadyInMode: "Already in {{role}} mode",
    roleSwitched: "Switched to {{role}} mode",
    roleSwitchForbidden: "Only administrators can switch roles",
    roleNames: {
      admin: "admin",
      user: "user"
    }
  },
  mail: {
    otpSubject: "Your ContrateIA verification code: {{code}}",
    otpText: "Hello,\n\nYour ContrateIA verification code is {{code}}.\n\nIt expires in {{minutes}} minutes and can be used once. If you did not ask for it, you can ignore this message.\n\nContrateIA",
    resetSubject: "Your ContrateIA password reset code: {{code}}",
    resetText: "Hello,\n\nYour code to reset your ContrateIA password is {{code}}.\n\nIt expires in {{minutes}} minutes and can be used once. If you did not ask for it, you can ignore this message: your password stays as it is.\n\nContrateIA",
    registerAttemptSubject: "Someone tried to create a ContrateIA account with your e-mail",
    registerAttemptText: "Hello,\n\nSomeone just tried to create a ContrateIA account with this e-mail address. It already has an account, so no new one was created and no code was sent.\n\nIf it was you, sign in instead: {{loginUrl}}\nYou can sign in with this e-mail address or your username. If you have forgotten your password, you can set a new one here: {{resetUrl}}\n\nIf it was not you, you can ignore this message: your account stays as it is.\n\nContrateIA"
  },
  agents: {
    notFound: "Agent not found",
    noAccess: "You don't have access to this agent",
    inactive: "This agent is not available right now",
    adminOnly: "Only administrators can hire this agent",
    singleAgent: "Your account works with one agent only",
    hired: "{{name}} is now on your team"
  },
  chat: {
    conversationNotFound: "Conversation not found",
    busy: "Please wait for the current reply to finish",
    providerFailed: "The AI service did not answer. Please try again."
  },
  engine: {
    greeting: "Hello! How can I help?",
    forExample: "For example:",
    thanks: "You're welcome! If you need anything else, just ask.",
    canHelpWith: "I can help with:",
    notFound: "I couldn't find an answer to that in what I know.",
    notFoundWords: "I couldn't find \u201C{{words}}\u201D in what I know.",
    cannotYet: "I can't answer that yet. I'm running without a language model, so I can only do a few things; once an administrator sets up a language model, I'll be able to answer open questions like this one.",
    forNow: "For now, I can help with:",
    page: "Page:",
    abilities: {
      dateTime: "the current date and time",
      calculation: "sums like 2 + 3 \xD7 (4 \u2212 1)",
      counts: "how many accounts, conversations and messages there are, in all, today or this week, and the newest accounts",
      status: "the state of the database and mail",
      catalogue: "the list of our products and services"
    },
    dateTime: {
      now: "It's {{time}} on {{date}} ({{zone}}).",
      today: "Today is {{date}} ({{zone}})."
    },
    calculation: {
      divisionByZero: "I can't divide by zero: the result is undefined.",
      notFinite: "The result is too large for me to compute."
    },
    facts: {
      adminsOnly: "Live system figures are shown only to administrators in admin mode.",
      unavailable: "I couldn't read the system figures just now. Please try again in a moment.",
      users_zero: "There are no registered users.",
      users_one: "There is {{count, number}} registered user.",
      users_many: "There are {{count, number}} registered users.",
      users_other: "There are {{count, number}} registered users.",
      conversationsToday_zero: "No conversations were started today.",
      conversationsToday_one: "{{count, number}} conversation was started today.",
      conversationsToday_many: "{{count, number}} conversations were started today.",
      conversationsToday_other: "{{count, number}} conversations were started today.",
      messagesToday_zero: "No messages were exchanged today.",
      messagesToday_one: "{{count, number}} message was exchanged today.",
      messagesToday_many: "{{count, number}} messages were exchanged today.",
      messagesToday_other: "{{count, number}} messages were exchanged today.",
      usersToday_zero: "No accounts were registered today.",
      usersToday_one: "{{count, number}} account was registered today.",
      usersToday_many: "{{count, number}} accounts were registered today.",
      usersToday_other: "{{count, number}} accounts were registered today.",
      usersWeek_zero: "No accounts were registered this week.",
      usersWeek_one: "{{count, number}} account was registered this week.",
      usersWeek_many: "{{count, number}} accounts were registered this week.",
      usersWeek_other: "{{count, number}} accounts were registered this week.",
      conversationsTotal_zero: "No conversations have been started yet.",
      conversationsTotal_one: "{{count, number}} conversation has been started in all.",
      conversationsTotal_many: "{{count, number}} conversations have been started in all.",
      conversationsTotal_other: "{{count, number}} conversations have been started in all.",
      conversationsWeek_zero: "No conversations were started this week.",
      conversationsWeek_one: "{{count, number}} conversation was started this week.",
      conversationsWeek_many: "{{count, number}} conversations were started this week.",
      conversationsWeek_other: "{{count, number}} conversations were started this week.",
      messagesTotal_zero: "No messages have been exchanged yet.",
      messagesTotal_one: "{{count, number}} message has been exchanged in all.",
      messagesTotal_many: "{{count, number}} messages have been exchanged in all.",
      messagesTotal_other: "{{count, number}} messages have been exchanged in all.",
      messagesWeek_zero: "No messages were exchanged this week.",
      messagesWeek_one: "{{count, number}} message was exchanged this week.",
      messagesWeek_many: "{{count, number}} messages were exchanged this week.",
      messagesWeek_other: "{{count, number}} messages were exchanged this week.",
      newest: "The newest accounts:",
      newestNone: "There are no accounts yet.",
      database: "Database: {{kind}}, {{state}}.",
      pglite: "embedded PGlite",
      postgres: "PostgreSQL",
      working: "working",
      notResponding: "not responding",
      mailSmtp: "Mail: sent over SMTP.",
      mailLog: "Mail: no SMTP configured; verification codes go to the server log."
    },
    catalogue: {
      intro: "These are our products and services:",
      outro: "Ask about any of them for the details and the price.",
      price: "Price: {{amount}} ({{unit}}).",
      once: "one-off payment",
      month: "per month",
      employeeMonth: "per employee, per month"
    },
    delivery: {
      pending: "I can't deliver that message yet: anonymous sending arrives with the WhatsApp integration, and nothing was sent. When it's available, write the recipient's number with its area code and your message here."
    }
  },
  account: {
    wrongPassword: "The password is not correct",
    lastAdmin: "This is the last administrator account, so it cannot be deleted. Make another account an administrator first.",
    profileSaved: "Profile saved",
    passwordChanged: "Password changed. Every other session has been signed out.",
    otherSessionsEnded_zero: "No other session was open",
    otherSessionsEnded_one: "Signed out of {{count}} other session",
    otherSessionsEnded_other: "Signed out of {{count}} other sessions",
    resetCodeSent: "If an account exists for {{email}}, we have sent it a code to reset the password.",
    passwordReset: "Your password has been reset. Please sign in with your new password.",
    accountDeleted: "Your account and all its data have been deleted."
  },
  whatsappServer: {
    conversationNotFound: "Conversation not found",
    notConnected: "WhatsApp is not connected. Connect your number and try again.",
    agentNotAvailable: "Choose one of your active agents",
    replyFailed: "The agent could not answer (the AI service failed). Nothing was sent.",
    sendFailed: "The agent's reply could not be sent: WhatsApp is not connected.",
    sandboxPairNotFound: "This pairing code is no longer valid. Scan the latest QR code.",
    sandboxPhoneNotLinked: "No account is linked to this number",
    sandboxPhoneTaken: "This number is already linked to another account",
    sandboxPhone: {
      title: "WhatsApp test phone",
      intro: "This is the sandbox's simulated phone. Enter its number to link it to the account that showed the QR code.",
      phoneLabel: "Phone number (with country code)",
      link: "Link device",
      linked: "Done: the number {{phone}} is linked. You can close this page."
    }
  }
};

// ../../packages/shared/src/locales/es-ES.json
var es_ES_default = {
  validation: {
    identifierRequired: "El usuario o correo electr\xF3nico es obligatorio",
    identifierTooLong: "El usuario o correo electr\xF3nico es demasiado largo",
    emailRequired: "El correo electr\xF3nico es obligatorio",
    emailInvalid: "Introduce un correo electr\xF3nico v\xE1lido",
    emailTooLong: "El correo electr\xF3nico es demasiado largo",
    nameRequired: "El nombre es obligatorio",
    nameTooLong: "El nombre debe tener como m\xE1ximo 100 caracteres",
    passwordRequired: "La contrase\xF1a es obligatoria",
    passwordTooShort: "La contrase\xF1a debe tener al menos 6 caracteres",
    passwordTooLong: "La contrase\xF1a debe tener como m\xE1ximo 128 caracteres",
    confirmPasswordRequired: "La confirmaci\xF3n de la contrase\xF1a es obligatoria",
    passwordsDoNotMatch: "Las contrase\xF1as no coinciden",
    otpRequired: "Introduce el c\xF3digo de verificaci\xF3n de tu correo",
    otpLength: "El c\xF3digo de verificaci\xF3n debe tener exactamente 6 d\xEDgitos",
    otpDigits: "El c\xF3digo de verificaci\xF3n solo puede contener n\xFAmeros (0-9)",
    invalidValue: "Valor no v\xE1lido",
    agentNameRequired: "El nombre del agente es obligatorio",
    agentNameInvalid: "Nombre de agente no v\xE1lido",
    agentIdRequired: "Elige un agente",
    messageRequired: "Escribe un mensaje",
    messageTooLong: "Los mensajes pueden tener como m\xE1ximo 4.000 caracteres",
    conversationIdInvalid: "Conversaci\xF3n no v\xE1lida",
    titleRequired: "Escribe un t\xEDtulo",
    titleTooLong: "Los t\xEDtulos pueden tener como m\xE1ximo 100 caracteres",
    titleInvalid: "Los t\xEDtulos solo pueden tener texto simple: sin saltos de l\xEDnea, caracteres ocultos ni etiquetas HTML",
    searchTooLong: "Las b\xFAsquedas pueden tener como m\xE1ximo 200 caracteres",
    languageInvalid: "Elige uno de los idiomas disponibles",
    currentPasswordRequired: "La contrase\xF1a actual es obligatoria",
    booleanRequired: "Elige s\xED o no",
    agentIdInvalid: "Agente no v\xE1lido",
    whatsappMessageTooLong: "Los mensajes de WhatsApp pueden tener como m\xE1ximo 4096 caracteres",
    phoneInvalid: "Escribe el n\xFAmero con el c\xF3digo de pa\xEDs, solo d\xEDgitos (de 10 a 15)",
    jidInvalid: "Direcci\xF3n de WhatsApp no v\xE1lida"
  },
  errors: {
    validation: "Error de validaci\xF3n",
    malformedJson: "El cuerpo de la petici\xF3n no es un JSON v\xE1lido",
    unsupportedMediaType: "Tipo de contenido no admitido",
    unauthorized: "No autorizado",
    forbidden: "Acceso denegado",
    notFound: "No encontrado",
    payloadTooLarge: "El cuerpo de la petici\xF3n es demasiado grande (m\xE1ximo 1 MB)",
    tooManyRequests_one: "Demasiadas peticiones. Int\xE9ntalo de nuevo en {{count}} segundo.",
    tooManyRequests_other: "Demasiadas peticiones. Int\xE9ntalo de nuevo en {{count}} segundos.",
    server: "Error del servidor",
    mailUnavailable: "No hemos podido enviar el correo ahora. Int\xE9ntalo de nuevo en un momento.",
    invalidCharacters: "La petici\xF3n contiene caracteres no permitidos",
    unavailable: "El servicio no est\xE1 disponible temporalmente. Int\xE9ntalo de nuevo en un momento.",
    badRequest: "La petici\xF3n no es v\xE1lida",
    uriTooLong: "La direcci\xF3n es demasiado larga",
    headersTooLarge: "Las cabeceras de la petici\xF3n son demasiado grandes",
    requestTimeout: "La petici\xF3n ha tardado demasiado en llegar. Int\xE9ntalo de nuevo."
  },
  auth: {
    otpSent: "Si este correo puede registrarse, hay un c\xF3digo en camino a {{email}}",
    otpCooldown_one: "Espera {{count}} segundo antes de pedir un nuevo c\xF3digo OTP",
    otpCooldown_other: "Espera {{count}} segundos antes de pedir un nuevo c\xF3digo OTP",
    otpDailyLimit_one: "Se han enviado demasiados c\xF3digos a este correo. Int\xE9ntalo de nuevo en {{count}} hora.",
    otpDailyLimit_other: "Se han enviado demasiados c\xF3digos a este correo. Int\xE9ntalo de nuevo en {{count}} horas.",
    otpInvalid: "C\xF3digo OTP no v\xE1lido. Revisa el c\xF3digo e int\xE9ntalo de nuevo.",
    otpExpired: "Este c\xF3digo OTP ha caducado. Pide un c\xF3digo nuevo.",
    otpAttemptsExhausted: "Demasiados intentos con un c\xF3digo OTP err\xF3neo. Pide un c\xF3digo nuevo.",
    otpMissing: "No hay un c\xF3digo OTP v\xE1lido para este correo. Pide un c\xF3digo nuevo.",
    emailTaken: "Ya existe una cuenta con este correo. Inicia sesi\xF3n.",
    registered: "\xA1Registro completado! Inicia sesi\xF3n con tu nueva cuenta.",
    invalidCredentials: "Usuario/correo o contrase\xF1a no v\xE1lidos",
    loginSuccess: "\xA1Bienvenido de nuevo, {{name}}!",
    loginThrottled_one: "Demasiados intentos fallidos de inicio de sesi\xF3n. Int\xE9ntalo de nuevo en {{count}} minuto.",
    loginThrottled_other: "Demasiados intentos fallidos de inicio de sesi\xF3n. Int\xE9ntalo de nuevo en {{count}} minutos.",
    loginThrottledSeconds_one: "Demasiados intentos fallidos de inicio de sesi\xF3n. Int\xE9ntalo de nuevo en {{count}} segundo.",
    loginThrottledSeconds_other: "Demasiados intentos fallidos de inicio de sesi\xF3n. Int\xE9ntalo de nuevo en {{count}} segundos.",
    loggedOut: "Has cerrado la sesi\xF3n",
    alreadyInMode: "Ya est\xE1s en modo {{role}}",
    roleSwitched: "Modo {{role}} activado",
    roleSwitchForbidden: "Solo los administradores pueden cambiar de modo",
    roleNames: {
      admin: "administrador",
      user: "usuario"
    }
  },
  mail: {
    otpSubject: "Tu c\xF3digo de verificaci\xF3n de ContrateIA: {{code}}",
    otpText: "Hola:\n\nTu c\xF3digo de verificaci\xF3n de ContrateIA es {{code}}.\n\nCaduca en {{minutes}} minutos y solo se puede usar una vez. Si no lo has pedido, ignora este mensaje.\n\nContrateIA",
    resetSubject: "Tu c\xF3digo para restablecer la contrase\xF1a de ContrateIA: {{code}}",
    resetText: "Hola:\n\nTu c\xF3digo para restablecer la contrase\xF1a de ContrateIA es {{code}}.\n\nCaduca en {{minutes}} minutos y solo se puede usar una vez. Si no lo has pedido, ignora este mensaje: tu contrase\xF1a sigue siendo la misma.\n\nContrateIA",
    registerAttemptSubject: "Alguien ha intentado crear una cuenta de ContrateIA con tu correo",
    registerAttemptText: "Hola:\n\nAlguien acaba de intentar crear una cuenta de ContrateIA con este correo. Ya tiene una cuenta, as\xED que no se ha creado ninguna nueva ni se ha enviado ning\xFAn c\xF3digo.\n\nSi has sido t\xFA, inicia sesi\xF3n: {{loginUrl}}\nPuedes iniciar sesi\xF3n con este correo o con tu nombre de usuario. Si has olvidado la contrase\xF1a, puedes crear una nueva aqu\xED: {{resetUrl}}\n\nSi no has sido t\xFA, ignora este mensaje: tu cuenta sigue como est\xE1.\n\nContrateIA"
  },
  agents: {
    notFound: "Agente no encontrado",
    noAccess: "No tienes acceso a este agente",
    inactive: "Este agente no est\xE1 disponible en este momento",
    adminOnly: "Solo los administradores pueden contratar este agente",
    singleAgent: "Tu cuenta funciona con un solo agente",
    hired: "{{name}} ya forma parte de tu equipo"
  },
  chat: {
    conversationNotFound: "Conversaci\xF3n no encontrada",
    busy: "Espera a que termine la respuesta actual",
    providerFailed: "El servicio de IA no ha respondido. Int\xE9ntalo de nuevo."
  },
  engine: {
    greeting: "\xA1Hola! \xBFEn qu\xE9 puedo ayudarte?",
    forExample: "Por ejemplo:",
    thanks: "\xA1De nada! Si necesitas algo m\xE1s, solo tienes que preguntar.",
    canHelpWith: "Puedo ayudarte con:",
    notFound: "No encontr\xE9 una respuesta a eso en lo que s\xE9.",
    notFoundWords: "No encontr\xE9 \xAB{{words}}\xBB en lo que s\xE9.",
    cannotYet: "Todav\xEDa no puedo responder a eso. Funciono sin un modelo de lenguaje, as\xED que solo s\xE9 hacer algunas cosas; cuando un administrador configure un modelo de lenguaje, podr\xE9 responder preguntas abiertas como esta.",
    forNow: "Por ahora, puedo ayudarte con:",
    page: "P\xE1gina:",
    abilities: {
      dateTime: "la fecha y la hora actuales",
      calculation: "cuentas como 2 + 3 \xD7 (4 \u2212 1)",
      counts: "cu\xE1ntas cuentas, conversaciones y mensajes hay, en total, hoy o esta semana, y las cuentas m\xE1s recientes",
      status: "el estado de la base de datos y del correo",
      catalogue: "la lista de nuestros productos y servicios"
    },
    dateTime: {
      now: "Son las {{time}} del {{date}} ({{zone}}).",
      today: "Hoy es {{date}} ({{zone}})."
    },
    calculation: {
      divisionByZero: "No se puede dividir entre cero: el resultado no est\xE1 definido.",
      notFinite: "El resultado es demasiado grande para calcularlo."
    },
    facts: {
      adminsOnly: "Las cifras del sistema en vivo solo se muestran a los administradores en modo administrador.",
      unavailable: "No pude leer las cifras del sistema ahora. Int\xE9ntalo de nuevo en un momento.",
      users_zero: "No hay usuarios registrados.",
      users_one: "Hay {{count, number}} usuario registrado.",
      users_many: "Hay {{count, number}} de usuarios registrados.",
      users_other: "Hay {{count, number}} usuarios registrados.",
      conversationsToday_zero: "Hoy no se inici\xF3 ninguna conversaci\xF3n.",
      conversationsToday_one: "Hoy se inici\xF3 {{count, number}} conversaci\xF3n.",
      conversationsToday_many: "Hoy se iniciaron {{count, number}} de conversaciones.",
      conversationsToday_other: "Hoy se iniciaron {{count, number}} conversaciones.",
      messagesToday_zero: "Hoy no se intercambi\xF3 ning\xFAn mensaje.",
      messagesToday_one: "Hoy se intercambi\xF3 {{count, number}} mensaje.",
      messagesToday_many: "Hoy se intercambiaron {{count, number}} de mensajes.",
      messagesToday_other: "Hoy se intercambiaron {{count, number}} mensajes.",
      usersToday_zero: "Hoy no se registr\xF3 ninguna cuenta.",
      usersToday_one: "Hoy se registr\xF3 {{count, number}} cuenta.",
      usersToday_many: "Hoy se registraron {{count, number}} de cuentas.",
      usersToday_other: "Hoy se registraron {{count, number}} cuentas.",
      usersWeek_zero: "Esta semana no se registr\xF3 ninguna cuenta.",
      usersWeek_one: "Esta semana se registr\xF3 {{count, number}} cuenta.",
      usersWeek_many: "Esta semana se registraron {{count, number}} de cuentas.",
      usersWeek_other: "Esta semana se registraron {{count, number}} cuentas.",
      conversationsTotal_zero: "Todav\xEDa no se ha iniciado ninguna conversaci\xF3n.",
      conversationsTotal_one: "En total se ha iniciado {{count, number}} conversaci\xF3n.",
      conversationsTotal_many: "En total se han iniciado {{count, number}} de conversaciones.",
      conversationsTotal_other: "En total se han iniciado {{count, number}} conversaciones.",
      conversationsWeek_zero: "Esta semana no se inici\xF3 ninguna conversaci\xF3n.",
      conversationsWeek_one: "Esta semana se inici\xF3 {{count, number}} conversaci\xF3n.",
      conversationsWeek_many: "Esta semana se iniciaron {{count, number}} de conversaciones.",
      conversationsWeek_other: "Esta semana se iniciaron {{count, number}} conversaciones.",
      messagesTotal_zero: "Todav\xEDa no se ha intercambiado ning\xFAn mensaje.",
      messagesTotal_one: "En total se ha intercambiado {{count, number}} mensaje.",
      messagesTotal_many: "En total se han intercambiado {{count, number}} de mensajes.",
      messagesTotal_other: "En total se han intercambiado {{count, number}} mensajes.",
      messagesWeek_zero: "Esta semana no se intercambi\xF3 ning\xFAn mensaje.",
      messagesWeek_one: "Esta semana se intercambi\xF3 {{count, number}} mensaje.",
      messagesWeek_many: "Esta semana se intercambiaron {{count, number}} de mensajes.",
      messagesWeek_other: "Esta semana se intercambiaron {{count, number}} mensajes.",
      newest: "Las cuentas m\xE1s recientes:",
      newestNone: "Todav\xEDa no hay cuentas.",
      database: "Base de datos: {{kind}}, {{state}}.",
      pglite: "PGlite integrado",
      postgres: "PostgreSQL",
      working: "funcionando",
      notResponding: "sin respuesta",
      mailSmtp: "Correo: enviado por SMTP.",
      mailLog: "Correo: sin SMTP configurado; los c\xF3digos de verificaci\xF3n van al registro del servidor."
    },
    catalogue: {
      intro: "Estos son nuestros productos y servicios:",
      outro: "Pregunta por cualquiera de ellos para ver los detalles y el precio.",
      price: "Precio: {{amount}} ({{unit}}).",
      once: "pago \xFAnico",
      month: "al mes",
      employeeMonth: "por empleado, al mes"
    },
    delivery: {
      pending: "Todav\xEDa no puedo entregar ese mensaje: el env\xEDo an\xF3nimo llega con la integraci\xF3n de WhatsApp, y no se envi\xF3 nada. Cuando est\xE9 disponible, escribe aqu\xED el n\xFAmero del destinatario con su prefijo y el mensaje."
    }
  },
  account: {
    wrongPassword: "La contrase\xF1a no es correcta",
    lastAdmin: "Esta es la \xFAltima cuenta de administrador y no se puede eliminar. Haz administradora a otra cuenta primero.",
    profileSaved: "Perfil guardado",
    passwordChanged: "Contrase\xF1a cambiada. Se han cerrado todas las dem\xE1s sesiones.",
    otherSessionsEnded_zero: "No hab\xEDa ninguna otra sesi\xF3n abierta",
    otherSessionsEnded_one: "Se ha cerrado {{count}} otra sesi\xF3n",
    otherSessionsEnded_other: "Se han cerrado {{count}} otras sesiones",
    resetCodeSent: "Si existe una cuenta para {{email}}, le hemos enviado un c\xF3digo para restablecer la contrase\xF1a.",
    passwordReset: "Tu contrase\xF1a se ha restablecido. Inicia sesi\xF3n con la nueva contrase\xF1a.",
    accountDeleted: "Tu cuenta y todos sus datos se han eliminado."
  },
  whatsappServer: {
    conversationNotFound: "Conversaci\xF3n no encontrada",
    notConnected: "WhatsApp no est\xE1 conectado. Conecta tu n\xFAmero y vuelve a intentarlo.",
    agentNotAvailable: "Elige uno de tus agentes activos",
    replyFailed: "El agente no pudo responder (fall\xF3 el servicio de IA). No se envi\xF3 nada.",
    sendFailed: "No se pudo enviar la respuesta del agente: WhatsApp no est\xE1 conectado.",
    sandboxPairNotFound: "Este c\xF3digo de vinculaci\xF3n ya no es v\xE1lido. Escanea el c\xF3digo QR m\xE1s reciente.",
    sandboxPhoneNotLinked: "Ninguna cuenta est\xE1 vinculada a este n\xFAmero",
    sandboxPhoneTaken: "Este n\xFAmero ya est\xE1 vinculado a otra cuenta",
    sandboxPhone: {
      title: "Tel\xE9fono de prueba de WhatsApp",
      intro: "Este es el tel\xE9fono simulado del sandbox. Escribe su n\xFAmero para vincularlo a la cuenta que mostr\xF3 el c\xF3digo QR.",
      phoneLabel: "N\xFAmero de tel\xE9fono (con c\xF3digo de pa\xEDs)",
      link: "Vincular dispositivo",
      linked: "Listo: el n\xFAmero {{phone}} est\xE1 vinculado. Puedes cerrar esta p\xE1gina."
    }
  }
};

// ../../packages/shared/src/locales/pt-BR.json
var pt_BR_default = {
  validation: {
    identifierRequired: "Usu\xE1rio ou e-mail \xE9 obrigat\xF3rio",
    identifierTooLong: "Usu\xE1rio ou e-mail muito longo",
    emailRequired: "E-mail \xE9 obrigat\xF3rio",
    emailInvalid: "Informe um endere\xE7o de e-mail v\xE1lido",
    emailTooLong: "Endere\xE7o de e-mail muito longo",
    nameRequired: "Nome \xE9 obrigat\xF3rio",
    nameTooLong: "O nome deve ter no m\xE1ximo 100 caracteres",
    passwordRequired: "Senha \xE9 obrigat\xF3ria",
    passwordTooShort: "A senha deve ter pelo menos 6 caracteres",
    passwordTooLong: "A senha deve ter no m\xE1ximo 128 caracteres",
    confirmPasswordRequired: "Confirma\xE7\xE3o de senha \xE9 obrigat\xF3ria",
    passwordsDoNotMatch: "As senhas n\xE3o coincidem",
    otpRequired: "Digite o c\xF3digo de verifica\xE7\xE3o enviado para seu e-mail",
    otpLength: "O c\xF3digo de verifica\xE7\xE3o deve ter exatamente 6 d\xEDgitos",
    otpDigits: "O c\xF3digo de verifica\xE7\xE3o deve conter apenas n\xFAmeros (0-9)",
    invalidValue: "Valor inv\xE1lido",
    agentNameRequired: "O nome do agente \xE9 obrigat\xF3rio",
    agentNameInvalid: "Nome de agente inv\xE1lido",
    agentIdRequired: "Escolha um agente",
    messageRequired: "Digite uma mensagem",
    messageTooLong: "As mensagens podem ter no m\xE1ximo 4.000 caracteres",
    conversationIdInvalid: "Conversa inv\xE1lida",
    titleRequired: "Digite um t\xEDtulo",
    titleTooLong: "Os t\xEDtulos podem ter no m\xE1ximo 100 caracteres",
    titleInvalid: "Os t\xEDtulos s\xF3 podem ter texto simples: sem quebras de linha, caracteres ocultos ou tags HTML",
    searchTooLong: "As buscas podem ter no m\xE1ximo 200 caracteres",
    languageInvalid: "Escolha um dos idiomas dispon\xEDveis",
    currentPasswordRequired: "A senha atual \xE9 obrigat\xF3ria",
    booleanRequired: "Escolha sim ou n\xE3o",
    agentIdInvalid: "Agente inv\xE1lido",
    whatsappMessageTooLong: "Mensagens do WhatsApp podem ter no m\xE1ximo 4.096 caracteres",
    phoneInvalid: "Digite o n\xFAmero com o c\xF3digo do pa\xEDs, s\xF3 d\xEDgitos (10 a 15)",
    jidInvalid: "Endere\xE7o do WhatsApp inv\xE1lido"
  },
  errors: {
    validation: "Erro de valida\xE7\xE3o",
    malformedJson: "O corpo da requisi\xE7\xE3o n\xE3o \xE9 um JSON v\xE1lido",
    unsupportedMediaType: "Tipo de conte\xFAdo n\xE3o suportado",
    unauthorized: "N\xE3o autorizado",
    forbidden: "Acesso negado",
    notFound: "N\xE3o encontrado",
    payloadTooLarge: "O corpo da requisi\xE7\xE3o \xE9 grande demais (m\xE1ximo 1 MB)",
    tooManyRequests_one: "Muitas requisi\xE7\xF5es. Tente novamente em {{count}} segundo.",
    tooManyRequests_other: "Muitas requisi\xE7\xF5es. Tente novamente em {{count}} segundos.",
    server: "Erro no servidor",
    mailUnavailable: "N\xE3o foi poss\xEDvel enviar o e-mail agora. Tente novamente em instantes.",
    invalidCharacters: "A requisi\xE7\xE3o cont\xE9m caracteres n\xE3o permitidos",
    unavailable: "O servi\xE7o est\xE1 temporariamente indispon\xEDvel. Tente novamente em instantes.",
    badRequest: "A requisi\xE7\xE3o n\xE3o \xE9 v\xE1lida",
    uriTooLong: "O endere\xE7o \xE9 longo demais",
    headersTooLarge: "Os cabe\xE7alhos da requisi\xE7\xE3o s\xE3o grandes demais",
    requestTimeout: "A requisi\xE7\xE3o demorou demais para chegar. Tente novamente."
  },
  auth: {
    otpSent: "Se este e-mail puder se cadastrar, um c\xF3digo est\xE1 a caminho de {{email}}",
    otpCooldown_one: "Aguarde {{count}} segundo antes de pedir um novo c\xF3digo OTP",
    otpCooldown_other: "Aguarde {{count}} segundos antes de pedir um novo c\xF3digo OTP",
    otpDailyLimit_one: "Muitos c\xF3digos foram enviados para este e-mail. Tente novamente em {{count}} hora.",
    otpDailyLimit_other: "Muitos c\xF3digos foram enviados para este e-mail. Tente novamente em {{count}} horas.",
    otpInvalid: "C\xF3digo OTP inv\xE1lido. Confira o c\xF3digo e tente novamente.",
    otpExpired: "Este c\xF3digo OTP expirou. Pe\xE7a um novo c\xF3digo.",
    otpAttemptsExhausted: "Tentativas demais com c\xF3digo OTP errado. Pe\xE7a um novo c\xF3digo.",
    otpMissing: "N\xE3o h\xE1 c\xF3digo OTP v\xE1lido para este e-mail. Pe\xE7a um novo c\xF3digo.",
    emailTaken: "J\xE1 existe uma conta com este e-mail. Fa\xE7a login.",
    registered: "Cadastro realizado com sucesso! Entre com sua nova conta.",
    invalidCredentials: "Usu\xE1rio/e-mail ou senha inv\xE1lidos",
    loginSuccess: "Bem-vindo de volta, {{name}}!",
    loginThrottled_one: "Tentativas de login demais. Tente novamente em {{count}} minuto.",
    loginThrottled_other: "Tentativas de login demais. Tente novamente em {{count}} minutos.",
    loginThrottledSeconds_one: "Tentativas de login demais. Tente novamente em {{count}} segundo.",
    loginThrottledSeconds_other: "Tentativas de login demais. Tente novamente em {{count}} segundos.",
    loggedOut: "Voc\xEA saiu da sua conta",
    alreadyInMode: "J\xE1 est\xE1 no modo {{role}}",
    roleSwitched: "Modo {{role}} ativado",
    roleSwitchForbidden: "Apenas administradores podem trocar de modo",
    roleNames: {
      admin: "administrador",
      user: "usu\xE1rio"
    }
  },
  mail: {
    otpSubject: "Seu c\xF3digo de verifica\xE7\xE3o ContrateIA: {{code}}",
    otpText: "Ol\xE1,\n\nSeu c\xF3digo de verifica\xE7\xE3o ContrateIA \xE9 {{code}}.\n\nEle expira em {{minutes}} minutos e s\xF3 pode ser usado uma vez. Se voc\xEA n\xE3o pediu este c\xF3digo, ignore esta mensagem.\n\nContrateIA",
    resetSubject: "Seu c\xF3digo para redefinir a senha do ContrateIA: {{code}}",
    resetText: "Ol\xE1,\n\nSeu c\xF3digo para redefinir a senha do ContrateIA \xE9 {{code}}.\n\nEle expira em {{minutes}} minutos e s\xF3 pode ser usado uma vez. Se voc\xEA n\xE3o pediu este c\xF3digo, ignore esta mensagem: sua senha continua a mesma.\n\nContrateIA",
    registerAttemptSubject: "Algu\xE9m tentou criar uma conta ContrateIA com o seu e-mail",
    registerAttemptText: "Ol\xE1,\n\nAlgu\xE9m acabou de tentar criar uma conta ContrateIA com este e-mail. Ele j\xE1 tem uma conta, ent\xE3o nenhuma conta nova foi criada e nenhum c\xF3digo foi enviado.\n\nSe foi voc\xEA, entre na sua conta: {{loginUrl}}\nVoc\xEA pode entrar com este e-mail ou com o seu nome de usu\xE1rio. Se esqueceu a senha, crie uma nova aqui: {{resetUrl}}\n\nSe n\xE3o foi voc\xEA, ignore esta mensagem: sua conta continua como est\xE1.\n\nContrateIA"
  },
  agents: {
    notFound: "Agente n\xE3o encontrado",
    noAccess: "Voc\xEA n\xE3o tem acesso a este agente",
    inactive: "Este agente n\xE3o est\xE1 dispon\xEDvel no momento",
    adminOnly: "Apenas administradores podem contratar este agente",
    singleAgent: "Sua conta funciona com um \xFAnico agente",
    hired: "{{name}} agora faz parte da sua equipe"
  },
  chat: {
    conversationNotFound: "Conversa n\xE3o encontrada",
    busy: "Aguarde a resposta atual terminar",
    providerFailed: "O servi\xE7o de IA n\xE3o respondeu. Tente novamente."
  },
  engine: {
    greeting: "Ol\xE1! Em que posso ajudar?",
    forExample: "Por exemplo:",
    thanks: "De nada! Se precisar de mais alguma coisa, \xE9 s\xF3 perguntar.",
    canHelpWith: "Posso ajudar com:",
    notFound: "N\xE3o encontrei uma resposta para isso no que eu sei.",
    notFoundWords: "N\xE3o encontrei \u201C{{words}}\u201D no que sei.",
    cannotYet: "Ainda n\xE3o consigo responder a isso. Estou funcionando sem um modelo de linguagem, ent\xE3o s\xF3 sei fazer algumas coisas; quando um administrador configurar um modelo de linguagem, poderei responder a perguntas abertas como essa.",
    forNow: "Por enquanto, posso ajudar com:",
    page: "P\xE1gina:",
    abilities: {
      dateTime: "a data e a hora de agora",
      calculation: "contas como 2 + 3 \xD7 (4 \u2212 1)",
      counts: "quantas contas, conversas e mensagens h\xE1, no total, hoje ou nesta semana, e as contas mais recentes",
      status: "o estado do banco de dados e do e-mail",
      catalogue: "a lista dos nossos produtos e servi\xE7os"
    },
    dateTime: {
      now: "Agora s\xE3o {{time}}, {{date}} ({{zone}}).",
      today: "Hoje \xE9 {{date}} ({{zone}})."
    },
    calculation: {
      divisionByZero: "N\xE3o d\xE1 para dividir por zero: o resultado n\xE3o \xE9 definido.",
      notFinite: "O resultado \xE9 grande demais para eu calcular."
    },
    facts: {
      adminsOnly: "Os n\xFAmeros do sistema ao vivo s\xF3 aparecem para administradores em modo administrador.",
      unavailable: "N\xE3o consegui ler os n\xFAmeros do sistema agora. Tente de novo em instantes.",
      users_zero: "N\xE3o h\xE1 usu\xE1rios cadastrados.",
      users_one: "H\xE1 {{count, number}} usu\xE1rio cadastrado.",
      users_many: "H\xE1 {{count, number}} de usu\xE1rios cadastrados.",
      users_other: "H\xE1 {{count, number}} usu\xE1rios cadastrados.",
      conversationsToday_zero: "Hoje n\xE3o foi iniciada nenhuma conversa.",
      conversationsToday_one: "Hoje foi iniciada {{count, number}} conversa.",
      conversationsToday_many: "Hoje foram iniciadas {{count, number}} de conversas.",
      conversationsToday_other: "Hoje foram iniciadas {{count, number}} conversas.",
      messagesToday_zero: "Hoje n\xE3o foi trocada nenhuma mensagem.",
      messagesToday_one: "Hoje foi trocada {{count, number}} mensagem.",
      messagesToday_many: "Hoje foram trocadas {{count, number}} de mensagens.",
      messagesToday_other: "Hoje foram trocadas {{count, number}} mensagens.",
      usersToday_zero: "Nenhuma conta foi cadastrada hoje.",
      usersToday_one: "Hoje foi cadastrada {{count, number}} conta.",
      usersToday_many: "Hoje foram cadastradas {{count, number}} de contas.",
      usersToday_other: "Hoje foram cadastradas {{count, number}} contas.",
      usersWeek_zero: "Nenhuma conta foi cadastrada nesta semana.",
      usersWeek_one: "Nesta semana foi cadastrada {{count, number}} conta.",
      usersWeek_many: "Nesta semana foram cadastradas {{count, number}} de contas.",
      usersWeek_other: "Nesta semana foram cadastradas {{count, number}} contas.",
      conversationsTotal_zero: "Nenhuma conversa foi iniciada ainda.",
      conversationsTotal_one: "Ao todo, foi iniciada {{count, number}} conversa.",
      conversationsTotal_many: "Ao todo, foram iniciadas {{count, number}} de conversas.",
      conversationsTotal_other: "Ao todo, foram iniciadas {{count, number}} conversas.",
      conversationsWeek_zero: "Nenhuma conversa foi iniciada nesta semana.",
      conversationsWeek_one: "Nesta semana foi iniciada {{count, number}} conversa.",
      conversationsWeek_many: "Nesta semana foram iniciadas {{count, number}} de conversas.",
      conversationsWeek_other: "Nesta semana foram iniciadas {{count, number}} conversas.",
      messagesTotal_zero: "Nenhuma mensagem foi trocada ainda.",
      messagesTotal_one: "Ao todo, foi trocada {{count, number}} mensagem.",
      messagesTotal_many: "Ao todo, foram trocadas {{count, number}} de mensagens.",
      messagesTotal_other: "Ao todo, foram trocadas {{count, number}} mensagens.",
      messagesWeek_zero: "Nenhuma mensagem foi trocada nesta semana.",
      messagesWeek_one: "Nesta semana foi trocada {{count, number}} mensagem.",
      messagesWeek_many: "Nesta semana foram trocadas {{count, number}} de mensagens.",
      messagesWeek_other: "Nesta semana foram trocadas {{count, number}} mensagens.",
      newest: "As contas mais recentes:",
      newestNone: "Ainda n\xE3o h\xE1 contas.",
      database: "Banco de dados: {{kind}}, {{state}}.",
      pglite: "PGlite embutido",
      postgres: "PostgreSQL",
      working: "funcionando",
      notResponding: "sem resposta",
      mailSmtp: "E-mail: enviado por SMTP.",
      mailLog: "E-mail: sem SMTP configurado; os c\xF3digos de verifica\xE7\xE3o v\xE3o para o log do servidor."
    },
    catalogue: {
      intro: "Estes s\xE3o os nossos produtos e servi\xE7os:",
      outro: "Pergunte sobre qualquer um deles para ver os detalhes e o pre\xE7o.",
      price: "Pre\xE7o: {{amount}} ({{unit}}).",
      once: "pagamento \xFAnico",
      month: "por m\xEAs",
      employeeMonth: "por funcion\xE1rio, por m\xEAs"
    },
    delivery: {
      pending: "Ainda n\xE3o posso entregar essa mensagem: o envio an\xF4nimo chega com a integra\xE7\xE3o do WhatsApp, e nada foi enviado. Quando estiver dispon\xEDvel, escreva aqui o n\xFAmero do destinat\xE1rio com DDD e a mensagem."
    }
  },
  account: {
    wrongPassword: "A senha n\xE3o est\xE1 correta",
    lastAdmin: "Esta \xE9 a \xFAltima conta de administrador e n\xE3o pode ser exclu\xEDda. Torne outra conta administradora primeiro.",
    profileSaved: "Perfil salvo",
    passwordChanged: "Senha alterada. Todas as outras sess\xF5es foram encerradas.",
    otherSessionsEnded_zero: "Nenhuma outra sess\xE3o estava aberta",
    otherSessionsEnded_one: "{{count}} outra sess\xE3o foi encerrada",
    otherSessionsEnded_other: "{{count}} outras sess\xF5es foram encerradas",
    resetCodeSent: "Se existir uma conta para {{email}}, enviamos a ela um c\xF3digo para redefinir a senha.",
    passwordReset: "Sua senha foi redefinida. Entre com a nova senha.",
    accountDeleted: "Sua conta e todos os seus dados foram exclu\xEDdos."
  },
  whatsappServer: {
    conversationNotFound: "Conversa n\xE3o encontrada",
    notConnected: "O WhatsApp n\xE3o est\xE1 conectado. Conecte seu n\xFAmero e tente de novo.",
    agentNotAvailable: "Escolha um dos seus agentes ativos",
    replyFailed: "O agente n\xE3o conseguiu responder (o servi\xE7o de IA falhou). Nada foi enviado.",
    sendFailed: "A resposta do agente n\xE3o p\xF4de ser enviada: o WhatsApp n\xE3o est\xE1 conectado.",
    sandboxPairNotFound: "Este c\xF3digo de pareamento n\xE3o vale mais. Leia o QR code mais recente.",
    sandboxPhoneNotLinked: "Nenhuma conta est\xE1 vinculada a este n\xFAmero",
    sandboxPhoneTaken: "Este n\xFAmero j\xE1 est\xE1 vinculado a outra conta",
    sandboxPhone: {
      title: "Telefone de teste do WhatsApp",
      intro: "Este \xE9 o telefone simulado do sandbox. Digite o n\xFAmero dele para vincular \xE0 conta que mostrou o QR code.",
      phoneLabel: "N\xFAmero do telefone (com c\xF3digo do pa\xEDs)",
      link: "Vincular dispositivo",
      linked: "Pronto: o n\xFAmero {{phone}} est\xE1 vinculado. Pode fechar esta p\xE1gina."
    }
  }
};

// ../../packages/shared/src/locales/index.ts
var sharedMessages = {
  "pt-BR": pt_BR_default,
  "en-US": en_US_default,
  "es-ES": es_ES_default
};

// ../../packages/shared/src/agents/agents.schemas.ts
import { z as z3 } from "zod";

// ../../packages/shared/src/agents/agent-names.ts
var SEEDED_AGENT_NAMES = ["guia", "assistente", "auxtrat", "administrador", "indirect"];
var PAIRING_AGENT_NAME = "auxtrat";
var DEFAULT_AGENT_NAME = "guia";

// ../../packages/shared/src/agents/agents.schemas.ts
var agentNameSchema = z3.string({ error: "validation.agentNameRequired" }).trim().min(1, "validation.agentNameRequired").max(40, "validation.agentNameInvalid").regex(/^[a-z0-9-]+$/, "validation.agentNameInvalid");
function perLanguage(value) {
  return z3.object(Object.fromEntries(LANGUAGES.map((l) => [l, value])));
}
var localizedTextSchema = perLanguage(z3.string());
var knowledgeEntrySchema = z3.object({
  id: z3.string(),
  language: z3.enum(LANGUAGES),
  title: z3.string(),
  content: z3.string(),
  keywords: z3.array(z3.string()).default([]),
  /** An in-app path the answer points to, e.g. /dashboard. */
  link: z3.string().optional()
});
var modelSettingsSchema = z3.object({
  /** Overrides AI_MODEL for this agent when set. */
  model: z3.string().nullable(),
  temperature: z3.number().min(0).max(2),
  /** Upper bound of a reply, in characters. */
  maxReplyLength: z3.number().int().min(50).max(2e4)
});
var AGENT_SKILLS = ["liveFacts", "calculation", "dateTime", "catalogue", "delivery"];
var AGENT_FALLBACKS = [
  /** "I found no answer to that in what I know", and some topics it knows. */
  "notFound",
  /** "I can't answer that yet" (not without a language model), and what it can do for now. */
  "cannotYet"
];
var agentCapabilitiesSchema = z3.object({
  /** Tried in this order before the knowledge, and offered in this order when it suggests topics. */
  skills: z3.array(z3.enum(AGENT_SKILLS)).refine((skills) => new Set(skills).size === skills.length, "validation.invalidValue"),
  fallback: z3.enum(AGENT_FALLBACKS)
});
var PRICE_UNITS = ["once", "month", "employeeMonth"];
var catalogueItemSchema = z3.object({
  id: z3.string().min(1),
  name: localizedTextSchema,
  description: localizedTextSchema,
  keywords: perLanguage(z3.array(z3.string())),
  /** A number in the catalogue's currency; the engine writes it in the language of the answer. */
  price: z3.number().finite().nonnegative(),
  unit: z3.enum(PRICE_UNITS)
});
var catalogueSchema = z3.object({
  /** ISO 4217 code of every price, e.g. BRL. */
  currency: z3.string().regex(/^[A-Z]{3}$/, "validation.invalidValue"),
  items: z3.array(catalogueItemSchema)
});
var agentConfigurationSchema = z3.object({
  instructions: z3.string(),
  welcomeMessage: localizedTextSchema,
  model: modelSettingsSchema,
  knowledge: z3.array(knowledgeEntrySchema),
  /** An agent an admin creates starts with no skills and answers from its knowledge only. */
  capabilities: agentCapabilitiesSchema.default({ skills: [], fallback: "notFound" }),
  /** What the `catalogue` skill sells; the knowledge need not repeat it. */
  catalogue: catalogueSchema.optional()
});
var agentSeedSchema = z3.strictObject({
  /**
   * Raised with every change to the file: a database holding a lower version takes the file's
   * content at its next start, unless an admin has edited that agent.
   */
  seedVersion: z3.number().int().positive(),
  displayName: localizedTextSchema,
  description: localizedTextSchema,
  adminOnly: z3.boolean(),
  configuration: agentConfigurationSchema.extend({ capabilities: agentCapabilitiesSchema })
});
var agentSchema = z3.object({
  id: z3.string(),
  name: z3.string(),
  displayName: z3.string(),
  description: z3.string(),
  isActive: z3.boolean(),
  createdAt: z3.string(),
  configuration: z3.object({ welcomeMessage: z3.string() }),
  isHired: z3.boolean()
});
var agentsResponseSchema = z3.object({ agents: z3.array(agentSchema) });
var hireAgentSchema = z3.object({
  agentId: z3.string({ error: "validation.agentIdRequired" }).trim().min(1, "validation.agentIdRequired").max(100)
});
var hireAgentResponseSchema = z3.object({ success: z3.literal(true), message: z3.string(), agent: agentSchema });

// ../../packages/shared/src/chat/chat.schemas.ts
import { z as z4 } from "zod";
var MESSAGE_MAX_LENGTH = 4e3;
var NOTHING_VISIBLE = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;
function isBlankText(text) {
  return NOTHING_VISIBLE.test(text);
}
var chatTextSchema = z4.string({ error: "validation.messageRequired" }).trim().refine((text) => !isBlankText(text), "validation.messageRequired").max(MESSAGE_MAX_LENGTH, "validation.messageTooLong");
var sendMessageSchema = z4.object({
  message: chatTextSchema,
  conversationId: z4.uuid("validation.conversationIdInvalid").optional(),
  agentName: agentNameSchema
});
var chatSenderSchema = z4.enum(["user", "bot"]);
var chatMessageSchema = z4.object({
  id: z4.string(),
  text: z4.string(),
  sender: chatSenderSchema,
  /** ISO 8601. */
  timestamp: z4.string(),
  /** The user stopped this reply: its text is what had arrived by then. */
  stopped: z4.boolean().optional()
});
var sendMessageResponseSchema = z4.object({
  success: z4.literal(true),
  message: chatMessageSchema,
  conversation: z4.object({ id: z4.string() })
});
var CONVERSATION_TITLE_MAX_LENGTH = 100;
var DERIVED_TITLE_LENGTH = 60;
var HIDDEN_CHARACTERS = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;
var MARKUP = /<\/?[a-z!?][^>]*>/i;
var renameConversationSchema = z4.object({
  title: z4.string({ error: "validation.titleRequired" }).trim().min(1, "validation.titleRequired").max(CONVERSATION_TITLE_MAX_LENGTH, "validation.titleTooLong").refine((title) => !HIDDEN_CHARACTERS.test(title) && !MARKUP.test(title), "validation.titleInvalid")
});
var conversationSummarySchema = z4.object({
  id: z4.string(),
  agentName: z4.string(),
  /** The stored title, else the start of the first message ('' for a conversation without one). */
  title: z4.string(),
  /** ISO 8601: the last message, which orders the list newest first. */
  updatedAt: z4.string(),
  messageCount: z4.number().int(),
  createdAt: z4.string()
});
var SEARCH_MAX_LENGTH = 200;
var conversationsQuerySchema = z4.object({
  agentName: agentNameSchema.optional(),
  q: z4.string().trim().max(SEARCH_MAX_LENGTH, "validation.searchTooLong").optional(),
  /**
   * A conversation whose reply the user has just stopped: the list waits (a few seconds at most)
   * until that reply is stored, so its message count and date are the new ones.
   */
  settle: z4.uuid("validation.conversationIdInvalid").optional()
});
var conversationsResponseSchema = z4.object({ conversations: z4.array(conversationSummarySchema) });
var conversationResponseSchema = z4.object({
  conversation: z4.object({
    id: z4.string(),
    agentName: z4.string(),
    title: z4.string(),
    createdAt: z4.string(),
    messages: z4.array(chatMessageSchema)
  })
});
var renameConversationResponseSchema = z4.object({
  success: z4.literal(true),
  conversation: conversationSummarySchema
});
var deleteConversationResponseSchema = z4.object({ success: z4.literal(true) });
var shortChatSchema = z4.object({ message: chatTextSchema, agentName: agentNameSchema });
var shortChatResponseSchema = z4.object({ response: z4.string() });
var pairingQrSchema = z4.object({
  sessionId: z4.uuid("validation.conversationIdInvalid"),
  agentName: agentNameSchema.pipe(z4.literal(PAIRING_AGENT_NAME, "validation.agentNameInvalid"))
});
var pairingQrResponseSchema = z4.object({
  qrCode: z4.string(),
  expiresAt: z4.string()
});
var userStatsResponseSchema = z4.object({
  hiredAgents: z4.number().int(),
  conversations: z4.number().int(),
  messages: z4.number().int()
});

// ../../packages/shared/src/whatsapp/whatsapp.schemas.ts
import { z as z5 } from "zod";
var WHATSAPP_MESSAGE_MAX_LENGTH = 4096;
var WHATSAPP_INBOUND_MAX_LENGTH = 65536;
var PHONE_PATTERN = /^\d{10,15}$/;
var whatsappStateSchema = z5.enum(["disconnected", "connecting", "qr", "ready", "reconnecting", "failed"]);
var whatsappStatusSchema = z5.object({
  isReady: z5.boolean(),
  /** A PNG data URL while a QR code waits to be scanned, else null. */
  qrCode: z5.string().nullable(),
  conversationsCount: z5.number().int(),
  aiEnabledCount: z5.number().int(),
  whitelistMode: z5.boolean(),
  whitelistedCount: z5.number().int(),
  agentAssignedCount: z5.number().int(),
  state: whatsappStateSchema,
  /** The linked number's digits once ready, else null. */
  phone: z5.string().nullable(),
  /** The agent that answers conversations with none assigned. */
  defaultAgentId: z5.string().nullable()
});
var whatsappSenderSchema = z5.enum(["contact", "user"]);
var whatsappMessageSchema = z5.object({
  id: z5.string(),
  sender: whatsappSenderSchema,
  text: z5.string(),
  /** ISO 8601. */
  timestamp: z5.string(),
  /** The agent that wrote this reply; absent on what the contact or the user wrote. */
  agentName: z5.string().optional()
});
var conversationStatusSchema = z5.enum(["active", "blocked", "pending"]);
var whatsappConversationSchema = z5.object({
  id: z5.string(),
  contact_name: z5.string(),
  contact_number: z5.string(),
  /** ISO 8601: the last message in or out. */
  updated_at: z5.string(),
  last_message: z5.object({ text: z5.string() }).nullable(),
  unread_count: z5.number().int(),
  ai_enabled: z5.boolean(),
  is_whitelisted: z5.boolean(),
  status: conversationStatusSchema,
  agent_id: z5.string().nullable(),
  agent_display_name: z5.string().nullable()
});
var whatsappConversationDetailSchema = whatsappConversationSchema.extend({
  messages: z5.array(whatsappMessageSchema)
});
var whatsappAgentSchema = z5.object({
  id: z5.string(),
  name: z5.string(),
  displayName: z5.string(),
  description: z5.string()
});
var dataResponse = (data) => z5.object({ success: z5.literal(true), data });
var toggleAiSchema = z5.object({ enabled: z5.boolean({ error: "validation.booleanRequired" }) });
var whitelistSchema = z5.object({ isWhitelisted: z5.boolean({ error: "validation.booleanRequired" }) });
var assignAgentSchema = z5.object({ agentId: z5.uuid("validation.agentIdInvalid").nullable() });
var whatsappSettingsSchema = z5.object({
  whitelistMode: z5.boolean({ error: "validation.booleanRequired" }).optional(),
  defaultAgentId: z5.uuid("validation.agentIdInvalid").optional()
});
var whatsappTextSchema = z5.string({ error: "validation.messageRequired" }).trim().refine((text) => !isBlankText(text), "validation.messageRequired").max(WHATSAPP_MESSAGE_MAX_LENGTH, "validation.whatsappMessageTooLong");
var sendWhatsAppMessageSchema = z5.object({ text: whatsappTextSchema });
var phoneSchema = z5.string({ error: "validation.phoneInvalid" }).regex(PHONE_PATTERN, "validation.phoneInvalid");
var jidSchema = z5.string({ error: "validation.jidInvalid" }).max(128, "validation.jidInvalid").regex(/^[\w.:-]+@(s\.whatsapp\.net|lid|g\.us|broadcast|newsletter|c\.us)$/, "validation.jidInvalid");
var sandboxPairSchema = z5.object({ token: z5.string().min(1).max(256), phone: phoneSchema });
var sandboxInboundSchema = z5.object({
  to: phoneSchema,
  from: jidSchema,
  text: z5.string().min(1).max(WHATSAPP_INBOUND_MAX_LENGTH),
  id: z5.string().min(1).max(128).optional(),
  pushName: z5.string().max(256).optional(),
  participant: jidSchema.optional(),
  fromAlt: jidSchema.optional()
});
var sandboxOutboundSchema = z5.object({ from: phoneSchema, to: jidSchema, text: z5.string().min(1).max(WHATSAPP_INBOUND_MAX_LENGTH) });
var sandboxPhoneEventSchema = z5.discriminatedUnion("type", [
  z5.object({ type: z5.literal("message"), to: z5.string(), id: z5.string(), text: z5.string(), at: z5.string() }),
  z5.object({ type: z5.literal("presence"), to: z5.string(), state: z5.enum(["composing", "paused"]), at: z5.string() }),
  z5.object({ type: z5.literal("read"), from: z5.string(), ids: z5.array(z5.string()), at: z5.string() })
]);

// ../../packages/shared/src/i18n/time-zones.ts
var DEFAULT_TIME_ZONES = {
  "pt-BR": "America/Sao_Paulo",
  "en-US": "UTC",
  "es-ES": "Europe/Madrid"
};

// src/paths.ts
import { fileURLToPath } from "node:url";
var MIGRATIONS_DIR = fileURLToPath(new URL("../migrations", import.meta.url));
var WEB_DIST_DIR = fileURLToPath(new URL("../../web/dist", import.meta.url));
var PACKAGE_JSON = fileURLToPath(new URL("../package.json", import.meta.url));
var PGLITE_TEMPLATE = fileURLToPath(new URL("../dist/pglite-template.tar", import.meta.url));
var PGLITE_WORKER = new URL(import.meta.url.endsWith(".ts") ? "./pglite-worker.mjs" : "./pglite-worker.js", import.meta.url);

export {
  LANGUAGES,
  languageFromTag,
  DEFAULT_BRAND_DOMAINS,
  OTP_LENGTH,
  OTP_RESEND_SECONDS,
  OTP_TTL_MINUTES,
  OTP_MAX_ATTEMPTS,
  SESSION_TIMEOUT_MINUTES,
  SESSION_MAX_AGE_DAYS,
  loginSchema,
  sendOtpSchema,
  completeRegistrationSchema,
  switchRoleSchema,
  messageResponseSchema,
  sessionResponseSchema,
  userResponseSchema,
  USER_AGENT_MAX,
  updateProfileSchema,
  profileResponseSchema,
  updateProfileResponseSchema,
  changePasswordSchema,
  sessionsResponseSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  deleteAccountSchema,
  accountExportSchema,
  errorResponseSchema,
  healthResponseSchema,
  sharedMessages,
  SEEDED_AGENT_NAMES,
  DEFAULT_AGENT_NAME,
  agentSeedSchema,
  agentsResponseSchema,
  hireAgentSchema,
  hireAgentResponseSchema,
  sendMessageSchema,
  sendMessageResponseSchema,
  DERIVED_TITLE_LENGTH,
  renameConversationSchema,
  conversationsQuerySchema,
  conversationsResponseSchema,
  conversationResponseSchema,
  renameConversationResponseSchema,
  deleteConversationResponseSchema,
  shortChatSchema,
  shortChatResponseSchema,
  pairingQrSchema,
  pairingQrResponseSchema,
  userStatsResponseSchema,
  whatsappStatusSchema,
  whatsappMessageSchema,
  whatsappConversationSchema,
  whatsappConversationDetailSchema,
  whatsappAgentSchema,
  dataResponse,
  toggleAiSchema,
  whitelistSchema,
  assignAgentSchema,
  whatsappSettingsSchema,
  sendWhatsAppMessageSchema,
  phoneSchema,
  sandboxPairSchema,
  sandboxInboundSchema,
  sandboxOutboundSchema,
  sandboxPhoneEventSchema,
  DEFAULT_TIME_ZONES,
  MIGRATIONS_DIR,
  WEB_DIST_DIR,
  PACKAGE_JSON,
  PGLITE_TEMPLATE,
  PGLITE_WORKER
};
//# sourceMappingURL=chunk-5ZY5SOQ4.js.map
