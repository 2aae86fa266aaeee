import { ErrorCode } from '../../shared/error-codes.js';
import { ConfigError, readConfigFile, type ConfigFile } from '../config/config-file.js';
import { updateConfigFile, type RawConfig } from '../config/config-writer.js';
import { HostError } from '../host-error.js';

/**
 * config.json for an API request: a file that cannot be read, or would not be valid after the
 * change (say, a person broke it by hand since the start), is a 409 naming the problem, and
 * nothing is written or applied.
 */
export function asRequestError<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof ConfigError) throw new HostError(409, ErrorCode.CONFIG_INVALID, err.message);
    throw err;
  }
}

/** config.json's settings as they are on disk now. */
export function readSavedConfig(file: string): ConfigFile {
  return asRequestError(() => readConfigFile(file));
}

/** Edits config.json (see updateConfigFile). */
export function saveConfig(file: string, edit: (raw: RawConfig) => void): ConfigFile {
  return asRequestError(() => updateConfigFile(file, edit));
}
