// Vitest global setup for the PostgreSQL API project: migrate one template database once, so that
// every test file's database is a copy of it (`CREATE DATABASE ... TEMPLATE`, some 0.2 s) instead of
// an empty one that runs every migration (some 3 s). Like PGlite's (pglite-template.setup.ts).
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.ts";
import { createPostgresDatabase } from "./test-database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresTemplateName: string;
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("the PostgreSQL API project needs TEST_DATABASE_URL");
  const template = await createPostgresDatabase(adminUrl);
  try {
    const database = await openDatabase({ kind: "postgres", url: template.url });
    try {
      await database.migrate();
    } finally {
      // A template is copied only while nobody is connected to it.
      await database.close();
    }
  } catch (error) {
    await template.drop();
    throw error;
  }
  project.provide("postgresTemplateName", template.name);
  return () => template.drop();
}
