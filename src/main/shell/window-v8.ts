/**
 * The window's V8 flags, passed by main to its renderers (Electron's `js-flags` switch, appended before the app is
 * ready; main's own V8 has started by then and keeps its defaults). The page benches' Chromium runs with the same
 * (bench/bench-chromium.ts), as it stands in for the window.
 *
 * A young generation of at most 2 MB a semi-space: a scavenge's pause grows with what survives it, and the domain
 * list's detail lists arriving in parts are nearly all survivors (they are kept). With V8's default (up to 16 MB,
 * grown as it goes), one scavenge while 100,000 domains scrolled held the window's thread for 174 ms (73 ms of its
 * CPU); at 2 MB a scroll had 116 scavenges of at most 24 ms, and its tasks over 50 ms fell from 38 to 6 (issue 54).
 * Short-lived garbage (a frame's virtual nodes) still dies young: the major collections did not grow.
 */
export const WINDOW_JS_FLAGS = '--max-semi-space-size=2'
