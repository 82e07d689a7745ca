// Builds Superstep's JupyterLab into build/: bundle.js (index.js and every
// package it imports) plus, through @jupyterlab/builder, the settings
// schemas, themes and style.js of the extensions listed in package.json.
const path = require('path');
const crypto = require('crypto');
const webpack = require('webpack');
const { Build } = require('@jupyterlab/builder');
const pkg = require('./package.json');

// Some loaders ask for md4 hashes, which Node 17+ (OpenSSL 3) refuses.
const createHash = crypto.createHash;
crypto.createHash = (algorithm, ...rest) =>
  createHash(algorithm === 'md4' ? 'sha256' : algorithm, ...rest);

const out = path.join(__dirname, 'build');

// Font and picture assets: inlined when small, files otherwise.
const inline = (mimetype) => ({ loader: 'url-loader', options: { limit: 10000, mimetype } });

module.exports = [
  {
    mode: 'development',
    devtool: false,
    bail: true,
    entry: ['whatwg-fetch', './index.js'],
    output: { path: out, filename: 'bundle.js', hashFunction: 'sha256' },
    module: {
      rules: [
        { test: /\.css$/, use: ['style-loader', 'css-loader'] },
        { test: /\.(html|eot)$/, use: 'file-loader' },
        { test: /\.(jpg|png|gif)$/, use: 'file-loader' },
        { test: /\.md$/, use: 'raw-loader' },
        { test: /\.js\.map$/, use: 'file-loader' },
        { test: /\.woff2?(\?v=\d+\.\d+\.\d+)?$/, use: inline('application/font-woff') },
        { test: /\.ttf(\?v=\d+\.\d+\.\d+)?$/, use: inline('application/octet-stream') },
        // SVG: a data URL inside CSS, the markup as a string inside JS.
        {
          test: /\.svg(\?v=\d+\.\d+\.\d+)?$/,
          issuer: /\.css$/,
          use: { loader: 'svg-url-loader', options: { encoding: 'none', limit: 10000 } },
        },
        { test: /\.svg(\?v=\d+\.\d+\.\d+)?$/, issuer: /\.js$/, use: 'raw-loader' },
      ],
    },
    plugins: [
      // Browser stand-ins for the few Node globals some packages read.
      new webpack.DefinePlugin({ 'process.env': '{}', process: { cwd: () => '/' } }),
    ],
  },
].concat(
  Build.ensureAssets({
    packageNames: pkg.jupyterlab.extensions,
    output: out,
    hashFunction: 'sha256',
  })
);
