import { describe, expect, it } from 'vitest';
import { unpackedPath } from '../../../build/main/core/unpacked-path.js';

describe('paths outside the asar archive', () => {
  it('maps a path inside app.asar to its unpacked copy, and leaves others alone', () => {
    expect(unpackedPath('/opt/Agent Host/resources/app.asar/build/main/plugins/')).toBe('/opt/Agent Host/resources/app.asar.unpacked/build/main/plugins/');
    expect(unpackedPath('C:\\Apps\\Agent Host\\resources\\app.asar\\build\\main\\core\\runtime\\worker\\agent-worker.js')).toBe(
      'C:\\Apps\\Agent Host\\resources\\app.asar.unpacked\\build\\main\\core\\runtime\\worker\\agent-worker.js',
    );
    expect(unpackedPath('/home/me/agent-host/build/main/plugins/')).toBe('/home/me/agent-host/build/main/plugins/');
    expect(unpackedPath('/x/app.asar.unpacked/build/a.js')).toBe('/x/app.asar.unpacked/build/a.js');
    expect(unpackedPath('/x/my-app.asarfile/a.js')).toBe('/x/my-app.asarfile/a.js');
  });
});
