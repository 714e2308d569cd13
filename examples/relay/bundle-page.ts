import path from 'node:path';
import { build } from 'esbuild';

/** The page's script (page.ts and the part of partstream it uses) bundled for browsers by esbuild. */
export async function bundlePage(): Promise<string> {
  const result = await build({ entryPoints: [path.join(__dirname, 'page.ts')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  const file = result.outputFiles[0];
  if (file === undefined) throw new Error('Expected esbuild to bundle page.ts');
  return file.text;
}
