import {
  REDACT_PATHS,
  batchedDestination,
  isLevelEnabled,
  lazyChildLoggerFactory,
  loggerOptions,
  serializeError
} from "./chunk-RB7PO6FM.js";
export {
  REDACT_PATHS,
  batchedDestination,
  isLevelEnabled,
  lazyChildLoggerFactory,
  loggerOptions,
  serializeError
};
//# sourceMappingURL=logger-T6OV443T.js.map
