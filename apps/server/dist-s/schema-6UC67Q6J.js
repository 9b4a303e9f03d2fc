import {
  agentHires,
  agents,
  conversations,
  messages,
  pairings,
  whatsappAccounts,
  whatsappConversations,
  whatsappMessages,
  whatsappSandboxEvents,
  whatsappSandboxLinks,
  whatsappSandboxPairings
} from "./chunk-YQ3A2WUH.js";
import {
  emailCodes,
  sessions,
  users,
  whatsappAuthCreds,
  whatsappAuthKeys
} from "./chunk-NSF64HGU.js";
export {
  agentHires,
  agents,
  conversations,
  emailCodes,
  messages,
  pairings,
  sessions,
  users,
  whatsappAccounts,
  whatsappAuthCreds,
  whatsappAuthKeys,
  whatsappConversations,
  whatsappMessages,
  whatsappSandboxEvents,
  whatsappSandboxLinks,
  whatsappSandboxPairings
};
//# sourceMappingURL=schema-6UC67Q6J.js.map
