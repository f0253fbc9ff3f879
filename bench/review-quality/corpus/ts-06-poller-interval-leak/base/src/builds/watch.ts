export interface BuildStatus {
  id: string;
  state: "queued" | "running" | "passed" | "failed";
}

export async function fetchStatus(id: string): Promise<BuildStatus> {
  const response = await fetch(`/api/builds/${id}`);
  return (await response.json()) as BuildStatus;
}
