/** Every family module, in the order they propose (ties in prior keep this order). */
import type { FamilyModule } from "./family.js";
import { asyncFamilies } from "./families/async.js";
import { bounds } from "./families/bounds.js";
import { builtins } from "./families/builtins.js";
import { literals } from "./families/literals.js";
import { names } from "./families/names.js";
import { nullish } from "./families/nullish.js";
import { operators } from "./families/operators.js";
import { returns } from "./families/returns.js";
import { scoping } from "./families/scoping.js";

export const FAMILY_MODULES: readonly FamilyModule[] = [
  operators,
  bounds,
  nullish,
  literals,
  names,
  returns,
  asyncFamilies,
  scoping,
  builtins,
];
