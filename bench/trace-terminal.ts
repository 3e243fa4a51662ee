export async function terminalTable(): Promise<void> {}
