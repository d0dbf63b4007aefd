import { definePinnedSurface } from "@raw/test-support/surface";
import * as api from "../src/index.js";

// The public names (values and types) are pinned in test/__snapshots__/exports.txt.
definePinnedSurface(new URL("..", import.meta.url), { ".": api });
