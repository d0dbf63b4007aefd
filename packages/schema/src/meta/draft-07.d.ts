import type { ValidateFunction } from "ajv";

/** Generated standalone validator of this dialect's meta-schema. */
declare const validate: ValidateFunction;

export { validate };
export default validate;
