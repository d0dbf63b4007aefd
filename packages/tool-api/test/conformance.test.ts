import { defineRegistryConformance } from "@raw/tool-api/testing";
import { createToolRegistry } from "../src/index.js";

defineRegistryConformance("createToolRegistry", (options) => createToolRegistry(options));
