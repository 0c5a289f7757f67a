// Every CSP or Trusted Types violation in the document, as the page saw it.
window.violations = [];
document.addEventListener('securitypolicyviolation', (event) =>
  window.violations.push({
    directive: event.violatedDirective,
    blocked: event.blockedURI,
    sample: event.sample,
    source: `${event.sourceFile}:${event.lineNumber}`,
  }),
);
