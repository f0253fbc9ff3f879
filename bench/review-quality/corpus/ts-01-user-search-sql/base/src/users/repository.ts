import type { Pool } from "pg";

export interface User {
  id: number;
  name: string;
  email: string;
}

export class UserRepository {
  constructor(private readonly pool: Pool) {}

  async byId(id: number): Promise<User | undefined> {
    const result = await this.pool.query<User>("SELECT id, name, email FROM users WHERE id = $1", [id]);
    return result.rows[0];
  }
}
