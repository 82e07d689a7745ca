// Extra build settings for @jupyter/builder (package.json jupyterlab.webpackConfig):
// module ids numbered in order, not hashed from names that hold the
// checkout's absolute path, so the committed build is the same from any
// folder (CI checks it is up to date).
module.exports = { optimization: { moduleIds: 'natural' } };
