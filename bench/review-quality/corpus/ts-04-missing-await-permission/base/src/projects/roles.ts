import { db } from "../db.ts";

export type Role = "owner" | "member";

/** Whether `userId` holds `role` on the project. */
export async function hasRole(userId: string, projectId: string, role: Role): Promise<boolean> {
  const row = await db.membership.find({ userId, projectId });
  return row?.role === role;
}
