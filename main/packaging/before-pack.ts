/**
 * electron-builder's beforePack hook (electron-builder.yml): refuses to package an app whose
 * better-sqlite3 was not built for the Electron version and architecture being packaged, which
 * would install fine and then fail on its first start. `npm run dist` builds it first; this
 * catches a bare `electron-builder` run or a cross-architecture build.
 */
import { fileURLToPath } from 'node:url';
import { hasElectronNativeBuild, nativeBindingPath } from './native-binding-path.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** builder-util's Arch enum, by value. */
const ARCH_NAMES: Record<number, string> = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

/** The part of electron-builder's BeforePackContext this hook reads. */
export interface PackContextLike {
  electronPlatformName: string;
  arch: number;
  packager: { info: { framework: { version: string } } };
}

/** The .node files the packaged app will look for; throws naming the missing ones. */
export function checkNativeBuilds(context: PackContextLike, root = PROJECT_ROOT): string[] {
  const version = context.packager.info.framework.version;
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  // A universal macOS app carries both builds and loads the one for the CPU it runs on.
  const arches = arch === 'universal' ? ['x64', 'arm64'] : [arch];
  const missing = arches.filter((a) => !hasElectronNativeBuild(root, version, platform, a));
  if (missing.length > 0) {
    const commands = missing.map((a) => `npm run native:electron -- --arch ${a}`).join('` and `');
    throw new Error(
      `better-sqlite3 is not built for Electron ${version} on ${platform}-${missing.join(' and ')}: ` +
        `run \`${commands}\` on ${platform} first (\`npm run dist\` does it for the machine it runs on)`,
    );
  }
  return arches.map((a) => nativeBindingPath(root, { runtime: 'electron', version, platform, arch: a }));
}

export default async function beforePack(context: PackContextLike): Promise<void> {
  checkNativeBuilds(context);
}
