import {
  hashToken,
  loadJwtSecret
} from "./chunk-ZX43WYFR.js";
export {
  hashToken,
  loadJwtSecret
};
//# sourceMappingURL=secrets-PDNU2MMT.js.map
