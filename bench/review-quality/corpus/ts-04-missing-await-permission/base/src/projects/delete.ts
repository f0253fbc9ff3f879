import type { Request, Response } from "express";
import { deleteProject } from "./store.ts";

export async function deleteProjectRoute(request: Request, response: Response): Promise<void> {
  const projectId = String(request.params.id);
  await deleteProject(projectId);
  response.status(204).end();
}
