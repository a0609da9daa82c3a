/**
 * ajv 8 behind a small cache: one ajv instance per schema, the root validator compiled once,
 * sub-schema validators (for anyOf coercion and ordering) compiled on first use.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { AgentError } from '../../contract/errors';
import { AnalyzedSchema } from './analyze';
import { SchemaNode } from './schema-node';

const ROOT_ID = 'oam-schema';

export class CompiledSchema {
  private readonly ajv: Ajv;
  private readonly validators = new Map<SchemaNode, ValidateFunction>();

  constructor(readonly analyzed: AnalyzedSchema) {
    // verbose: errors carry parentSchema, which lets anyOf/oneOf failures be summarised.
    // strictNumbers: NaN and ±Infinity (a model's 1e400) are not numbers, let alone integers.
    this.ajv = new Ajv({
      allErrors: true,
      strict: false,
      strictNumbers: true,
      logger: false,
      validateSchema: false,
      verbose: true,
    });
    try {
      this.ajv.addSchema({ ...analyzed.root, $id: ROOT_ID } as object, undefined, undefined, false);
      this.validators.set(analyzed.root, this.compiled(ROOT_ID));
    } catch (error) {
      throw new AgentError('invalid_schema', `$: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }

  /** ajv errors of the whole schema, or [] when the value is valid. */
  errors(value: unknown): ErrorObject[] {
    const validate = this.validatorFor(this.analyzed.root);
    return validate(value) ? [] : (validate.errors ?? []).slice();
  }

  /** Whether a value matches one node of the tree (with the root's definitions in scope). */
  matches(node: SchemaNode, value: unknown): boolean {
    return this.validatorFor(node)(value) === true;
  }

  private validatorFor(node: SchemaNode): ValidateFunction {
    let validate = this.validators.get(node);
    if (!validate) {
      const pointer = this.analyzed.pointers.get(node);
      if (pointer === undefined) throw new AgentError('invalid_schema', '$: internal error: unknown schema node');
      validate = this.compiled(`${ROOT_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}`);
      this.validators.set(node, validate);
    }
    return validate;
  }

  private compiled(ref: string): ValidateFunction {
    const validate = this.ajv.getSchema(ref);
    if (!validate) throw new AgentError('invalid_schema', `$: cannot compile ${ref}`);
    return validate;
  }
}
