import { spawnSync } from 'node:child_process';

/**
 * How tools that need no network (LibreOffice, Ghostscript, tesseract, qpdf, poppler, zbar) are started without
 * one: in a network namespace of their own, where nothing but a loopback that is down exists. A document that makes
 * its converter fetch a URL (a spreadsheet's WEBSERVICE, an external image, a PostScript file operator on a socket)
 * then reaches nothing, not even this server's own ports or the cloud metadata address.
 *
 * As root `unshare --net` does it; otherwise an unprivileged user namespace (`--map-root-user`) where the kernel
 * allows them. Probed once per process (~3 ms); where neither works, tools run with the machine's network and
 * `noNetworkMode()` says so (logged at start, shown by /ready's checks).
 */
export type NoNetworkMode = 'netns' | 'userns' | 'unavailable';

const candidates: Array<[NoNetworkMode, string[]]> = [
  ['netns', ['unshare', '--net', '--']],
  ['userns', ['unshare', '--user', '--map-root-user', '--net', '--']],
];

let probed: { mode: NoNetworkMode; prefix: string[] } | undefined;

function probe(): { mode: NoNetworkMode; prefix: string[] } {
  for (const [mode, prefix] of candidates) {
    const r = spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], { stdio: 'ignore', timeout: 5000 });
    if (r.status === 0) return { mode, prefix };
  }
  return { mode: 'unavailable', prefix: [] };
}

/** The command prefix that starts a tool without network ([] when the machine cannot). */
export function noNetworkPrefix(): string[] {
  probed ??= probe();
  return probed.prefix;
}

export function noNetworkMode(): NoNetworkMode {
  probed ??= probe();
  return probed.mode;
}
