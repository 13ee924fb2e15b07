// A download link in a page: `downloadUrl` is absolute and signed, so a plain <a href> works,
// with no Authorization header, for 15 minutes (replay the order for a fresh one); the document
// itself lasts until the end of its London day, after which it must be ordered again with a new key.
interface OrderedDocument {
  titleNumber: string;
  downloadUrl: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function downloadLinkHtml(document: OrderedDocument): string {
  return `<a href="${escapeHtml(document.downloadUrl)}" download="${escapeHtml(document.titleNumber)}.pdf">Title document of ${escapeHtml(document.titleNumber)} (PDF)</a>`;
}
