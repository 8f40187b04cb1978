/**
 * `npm run lint` fails on an import cycle (issue 12): a cycle between folders means a boundary is in
 * the wrong place; move the shared type down instead of importing around it. Type-only imports count:
 * they show the same misplaced boundary.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move the shared type or function down to a module both can import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'sandbox-independent',
      severity: 'error',
      comment:
        'The sandbox is written from the spec: a sandbox that imports the client (or its listing schema) agrees with it by construction, so no test can catch a client that misreads the spec.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(api|normalize|reconcile|sources|settings)/' },
    },
    {
      name: 'src-not-jobs',
      severity: 'error',
      comment:
        'jobs/ builds on src/, never the reverse (a folder-level cycle between src/queue and jobs/); move a shared type down into src/ instead. The CLI, on top of everything, may start the worker.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^jobs/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    parser: 'swc',
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
