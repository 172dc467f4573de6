// The preload exposes window.api, built from the IPC contract (see src/shared/ipc).
export {}
