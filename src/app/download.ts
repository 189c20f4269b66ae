/** Hands the browser a file to save, as a download named `name`. */
export function downloadFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The click starts the download asynchronously: the URL must outlive it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
