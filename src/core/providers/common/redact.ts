/** Removes every copy of a secret from a text (providers echo refused keys in their error bodies). */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('[key hidden]');
}
