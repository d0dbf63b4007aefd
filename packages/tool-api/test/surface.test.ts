import { definePinnedSurface } from "@raw/test-support/surface";
import * as api from "../src/index.js";
import * as testing from "../src/testing.js";

// The public names (values and types) are pinned in test/__snapshots__/exports.txt and exports.testing.txt.
definePinnedSurface(new URL("..", import.meta.url), { ".": api, "./testing": testing });
