import express from "express";

export const UPLOAD_DIR = process.env.UPLOAD_DIR ?? "/var/lib/app/uploads";

export const attachments = express.Router();

attachments.get("/attachments", (_request, response) => {
  response.json({ directory: "attachments" });
});
