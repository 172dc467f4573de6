/**
 * The window's V8 flags, passed by main to its renderers (Electron's `js-flags` switch, appended before the app is
 * ready; main's own V8 has started by then and keeps its defaults). The page benches' Chromium runs with the same
 * (bench/bench-chromium.ts), as it stands in for the window.
 *
 * A young generation of at most 4 MB a semi-space: a scavenge's pause grows with what survives it, and the domain
 * list's detail lists arriving in parts are nearly all survivors (they are kept). With V8's default (up to 16 MB,
 * grown as it goes), one scavenge while 100,000 domains scrolled held the window's thread for 174 ms (73 ms of its
 * CPU). Measured alternately with and without (issue 54): at 4 MB the 100,000-domain scroll's tasks over 50 ms of the
 * thread's CPU were 0 and 0 against 5 and 2 (two pairs), its longest task by CPU 44-71 ms against 74-94 (four pairs);
 * the 10,000-row list's figures against its bare baseline stayed within their run-to-run swing (filter 0.96-1.34x
 * with, 0.94-1.38x without).
 * At 2 MB that list's filter and scroll got worse (1.44x twice): more of its short-lived garbage was promoted.
 */
export const WINDOW_JS_FLAGS = '--max-semi-space-size=4'
