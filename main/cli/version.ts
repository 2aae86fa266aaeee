// The host core reports the version too (the control API's session info): one implementation.
export { appVersion } from '../core/app-version.js';
