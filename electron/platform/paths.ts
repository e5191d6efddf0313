/**
 * Where Tokenscope keeps its files outside Electron's own userData: the runs folder is shared by
 * the desktop app, web mode and `tokenscope run`, so a run from the terminal shows up in the
 * app's history. TOKENSCOPE_HOME overrides it (tests, portable setups).
 */
import os from 'node:os';
import path from 'node:path';

export function tokenscopeHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.TOKENSCOPE_HOME) return env.TOKENSCOPE_HOME;
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'tokenscope');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'tokenscope');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'tokenscope');
}

export function runsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(tokenscopeHome(env), 'runs');
}
