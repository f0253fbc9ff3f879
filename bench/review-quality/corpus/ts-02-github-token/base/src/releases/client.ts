const API = "https://api.github.com";

export interface Release {
  tag_name: string;
  name: string;
  body: string;
}

export async function latestRelease(repo: string): Promise<Release> {
  const response = await fetch(`${API}/repos/${repo}/releases/latest`, {
    headers: { accept: "application/vnd.github+json" },
  });
  if (!response.ok) throw new Error(`GitHub answered ${response.status}`);
  return (await response.json()) as Release;
}
