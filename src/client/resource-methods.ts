/**
 * `ResourceMethods`: the resource and prompt methods of `Client`, written once over its `request` and
 * `target` (src/client/resources.ts does the work). `Client` extends it; `Session` delegates to its client.
 */
import type { CallOptions } from './call-options.js';
import type {
  GetPromptResult,
  ListOptions,
  PromptList,
  ReadResourceResult,
  ResourceList,
  ResourceTemplateList,
} from './resource-types.js';
import * as resources from './resources.js';

export abstract class ResourceMethods {
  /** A display name for the server, never a secret. */
  abstract get target(): string;

  /** Sends any request and returns its raw `result`. */
  abstract request(
    method: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;

  /** Every resource (`resources/list`), following pagination to the end; malformed entries left out with a reason. */
  listResources(options?: ListOptions): Promise<ResourceList> {
    return resources.listResources(this, options);
  }

  /** Every resource template (`resources/templates/list`), paginated and checked like `listResources`. */
  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplateList> {
    return resources.listResourceTemplates(this, options);
  }

  /** Reads one resource (`resources/read`); contents that break the schema are left out with a reason. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return resources.readResource(this, uri, options);
  }

  /** Every prompt (`prompts/list`), paginated and checked like `listResources`. */
  listPrompts(options?: ListOptions): Promise<PromptList> {
    return resources.listPrompts(this, options);
  }

  /** Gets one prompt's messages (`prompts/get`) with string arguments; malformed messages left out with a reason. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return resources.getPrompt(this, name, args, options);
  }
}
