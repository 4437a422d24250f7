/**
 * Sources of the files the node observer writes before a run (kept as strings so the Action's
 * single-file bundle carries them; no build-asset copying).
 *
 * The preload (`--require`, through NODE_OPTIONS) is loaded by every Node process of the run: npm,
 * tsc, eslint, the runners' workers, the tests' own children. It does something only in the main
 * thread of a process whose main module (the real path of process.argv[1]) is a known runner's
 * command-line entry, and there only hooks the runner's own modules: the argv the tests see is left
 * as it is (vitest alone gets reporter flags, read by its main process; its tests run in workers that
 * do not get them). Everything is wrapped in try/catch: the preload never throws, never prints, never
 * changes an exit status. Reports are written as `<runner>-<pid>-<n>.report` into the reports folder
 * (to `.tmp`, then renamed).
 *
 * Kept to ES2017 syntax and `require` of core modules only, so it loads in any Node version a
 * maintainer's project may use.
 */
import { SELECT_PART } from './node-preload-select.js';

/**
 * jest (CJS): when jest-cli loads @jest/core, runCLI is wrapped (through a Proxy: its exports are getters); when it resolves, the --json shape (formatTestResults of @jest/test-result next to @jest/core) is written. argv is not touched, except with a selection: runCLI's parsed argv then gets the names (testNamePattern), passWithNoTests, and the files as its path patterns when the command gave none.
 */
const JEST_PART = `    var narrowJest = function (args) {
      try {
        var argv = args[0];
        var names = selectedNames();
        if (!names || !argv || typeof argv !== 'object' || argv.listTests) return args;
        var a = Object.assign({}, argv, { testNamePattern: names, passWithNoTests: true });
        var files = selectedFiles();
        var own = (argv._ && argv._.length) || argv.testPathPattern || (argv.testPathPatterns && argv.testPathPatterns.length);
        if (files && !a.findRelatedTests && !own) {
          a._ = files.map(reLit);
          delete a.testPathPattern;
          delete a.testPathPatterns;
        }
        return [a].concat(Array.prototype.slice.call(args, 1));
      } catch (e) { return args; }
    };
    var hookJest = function () {
      onLoad(/^@jest\\/core$/, /\\/@jest\\/core\\//, function (exp, filename) {
        if (!exp || typeof exp.runCLI !== 'function') return undefined;
        var runCLI = exp.runCLI;
        var wrapped = function () {
          var p = runCLI.apply(this, narrowJest(arguments));
          try {
            return Promise.resolve(p).then(function (out) {
              try {
                var format = Module.createRequire(filename)('@jest/test-result').formatTestResults;
                if (out && out.results && typeof format === 'function') write('jest', jsonOf(format(out.results)));
              } catch (e) { /* no report */ }
              return out;
            });
          } catch (e) { return p; }
        };
        var d = Object.getOwnPropertyDescriptor(exp, 'runCLI');
        if (d && d.configurable === false && d.writable === false) {
          return Object.create(exp, { runCLI: { value: wrapped, enumerable: true } });
        }
        return new Proxy(exp, {
          get: function (t, k, r) { return k === 'runCLI' ? wrapped : Reflect.get(t, k, r); },
        });
      });
    };

`;

/** vitest (ESM, tests in a worker pool that does not get the main process's argv): reporter flags are added to the main process's argv before vitest's CLI reads it; the default reporter is kept unless the command names its own. A selection adds its names (testNamePattern); its files are not added (vitest's filters add to the command's own). */
const VITEST_PART = `    var VITEST_SKIP = { list: 1, bench: 1, init: 1, typecheck: 1, complete: 1 };
    var amendVitest = function () {
      var a = runnerArgs(VITEST_SKIP, /^(-h|--help|-v|--version|--standalone|--watch|-w)$/);
      if (!a) return;
      var userReporter = a.own.some(function (x) { return /^--reporters?(=|$)/.test(x); });
      var add = (userReporter ? [] : ['--reporter=default']).concat(['--reporter=json', '--outputFile.json=' + reportPath('vitest')]);
      var names = selectedNames();
      if (names) add = add.concat(['--testNamePattern=' + names, '--passWithNoTests']);
      process.argv.splice.apply(process.argv, [a.at, 0].concat(add));
    };

`;

/** mocha (tests run in its own process: argv is not touched): Mocha.prototype.run wraps the reporter class for that run so the json reporter's shape is collected from the runner's events (parallel mode re-emits them in the main process too). */
const MOCHA_PART = `    var attachMocha = function (runner) {
      var tests = [], pending = [], failures = [], passes = [];
      var one = function (t, err) {
        return {
          title: t.title,
          fullTitle: typeof t.fullTitle === 'function' ? t.fullTitle() : String(t.title),
          file: t.file || undefined,
          err: err ? { message: String((err && err.message) || err) } : {},
          state: t.pending ? 'pending' : t.state || undefined,
        };
      };
      var on = function (ev, f) { runner.on(ev, function (a, b) { try { f(a, b); } catch (e) { /* keep going */ } }); };
      on('test end', function (t) { tests.push(one(t)); });
      on('pass', function (t) { passes.push(one(t)); });
      on('pending', function (t) { pending.push(one(t)); });
      on('fail', function (t, err) { failures.push(one(t, err)); });
      runner.once('end', function () {
        try {
          var stats = { tests: tests.length, passes: passes.length, pending: pending.length, failures: failures.length };
          write('mocha', JSON.stringify({ stats: stats, tests: tests, pending: pending, failures: failures, passes: passes }));
        } catch (e) { /* no report */ }
      });
    };
    // A spec file that throws while mocha loads it (an ESM import of a name the code does not export
    // yet): mocha stops before any test runs, so the report is that file as one failed test
    // (\`[build failed]\`, see unbuilt.ts); the file is the last one mocha announced ('pre-require').
    var hookMochaLoad = function (Mocha, name) {
      var load = Mocha.prototype[name];
      if (typeof load !== 'function') return;
      Mocha.prototype[name] = function () {
        var self = this, current;
        var pre = function (ctx, file) { current = file; };
        var off = function () { try { self.suite.removeListener('pre-require', pre); } catch (e) { /* nothing */ } };
        var fail = function (err) {
          off();
          if (self[MARK]) return;
          try {
            self[MARK] = true;
            var t = { title: '[build failed]', fullTitle: '[build failed]', file: current, err: { message: String((err && err.message) || err) } };
            write('mocha', JSON.stringify({ stats: { tests: 1, passes: 0, pending: 0, failures: 1 }, tests: [t], pending: [], failures: [t], passes: [] }));
          } catch (e) { /* no report */ }
        };
        try { self.suite.on('pre-require', pre); } catch (e) { /* no file name */ }
        var r;
        try { r = load.apply(self, arguments); } catch (err) { fail(err); throw err; }
        if (r && typeof r.then === 'function') return r.then(function (v) { off(); return v; }, function (err) { fail(err); throw err; });
        off();
        return r;
      };
    };
    var hookMocha = function () {
      onLoad(/mocha(\\.c?js)?$/, /\\/mocha\\/lib\\/mocha\\.c?js$/, function (Mocha) {
        if (!Mocha || !Mocha.prototype || typeof Mocha.prototype.run !== 'function' || Mocha[MARK]) return undefined;
        Mocha[MARK] = true;
        try { hookMochaLoad(Mocha, 'loadFiles'); hookMochaLoad(Mocha, 'loadFilesAsync'); } catch (e) { /* loads as before */ }
        var run = Mocha.prototype.run;
        Mocha.prototype.run = function () {
          var self = this;
          try {
            // A selection narrows by name only: spec files stay (mocha's --file setup files are in the same list).
            var names = selectedNames();
            if (names && typeof self.grep === 'function') {
              self.grep(new RegExp(names));
              if (self.options) self.options.invert = false;
            }
          } catch (e) { /* runs whole */ }
          var Reporter = self._reporter;
          if (typeof Reporter !== 'function') return run.apply(self, arguments);
          var Observed = function (runner, options) {
            try { attachMocha(runner); } catch (e) { /* no report */ }
            return Reflect.construct(Reporter, [runner, options], new.target || Observed);
          };
          try {
            Object.setPrototypeOf(Observed, Reporter);
            Observed.prototype = Reporter.prototype;
            self._reporter = Observed;
          } catch (e) { self._reporter = Reporter; }
          try {
            return run.apply(self, arguments);
          } finally {
            if (self._reporter === Observed) self._reporter = Reporter;
          }
        };
        return undefined;
      });
    };

`;

/** jasmine (in-process): Jasmine.prototype.execute adds a reporter that writes every spec's file, full name and status. */
const JASMINE_PART = `    var hookJasmine = function () {
      onLoad(/jasmine(\\.js)?$/, /\\/jasmine\\/lib\\/jasmine\\.js$/, function (Jasmine) {
        if (!Jasmine || !Jasmine.prototype || typeof Jasmine.prototype.execute !== 'function' || Jasmine[MARK]) return undefined;
        Jasmine[MARK] = true;
        var execute = Jasmine.prototype.execute;
        Jasmine.prototype.execute = function () {
          try {
            if (!this[MARK] && typeof this.addReporter === 'function') {
              this[MARK] = true;
              var specs = [];
              this.addReporter({
                specDone: function (r) {
                  try { specs.push({ file: r.filename || null, fullName: r.fullName, status: r.status }); } catch (e) { /* skip */ }
                },
                jasmineDone: function (r) {
                  write('jasmine', JSON.stringify({ reporter: 'proofpr-jasmine', overallStatus: r && r.overallStatus, specs: specs }));
                },
              });
            }
          } catch (e) { /* no report */ }
          return execute.apply(this, arguments);
        };
        return undefined;
      });
    };

`;

/**
 * AVA (ESM; tests run in worker threads or child processes, which get none of the main process's
 * argv): `--tap` is added to the main process's argv and its stdout is copied into the report at exit.
 * The run's output is then AVA's TAP instead of its default reporter (still readable).
 */
const AVA_PART = `    var AVA_SKIP = { debug: 1, 'reset-cache': 1 };
    var teeAva = function () {
      var a = runnerArgs(AVA_SKIP, /^(-h|--help|--version|-w|--watch)$/);
      if (!a) return;
      if (a.own.indexOf('--tap') === -1 && a.own.indexOf('-t') === -1) process.argv.splice(a.at, 0, '--tap');
      var chunks = [];
      var stdout = process.stdout;
      var original = stdout.write;
      stdout.write = function (chunk, encoding) {
        try {
          chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
        } catch (e) { /* keep printing */ }
        return original.apply(this, arguments);
      };
      process.on('exit', function () { write('ava', chunks.join('')); });
    };
`;

/**
 * Runners the preload cannot observe (node-tap runs each test file in a child process and prints its
 * own reporter; playwright runs its tests in workers; uvu has no reporter to ask for and prints only
 * dots and its `Total/Passed/Skipped` block): their main process only leaves an empty
 * `<runner>-<pid>.seen` marker, so the harness reads that runner's own summary lines beside the
 * observed runners' reports (count-calls.ts). Claiming the process keeps the test files' own Node
 * processes inert.
 */
const SEEN_PART = `    var TAP_MAIN = /\\/tap\\/(bin\\/run\\.js|dist\\/(esm|commonjs)\\/run\\.m?js)$|\\/@tapjs\\/run\\/dist\\/(esm|commonjs)\\/index\\.m?js$/;
    var PLAYWRIGHT_MAIN = /\\/(playwright|playwright-core|@playwright\\/test)\\/cli\\.js$/;
    var markSeen = function (runner) {
      try {
        fs.mkdirSync(REPORTS, { recursive: true });
        fs.writeFileSync(path.join(REPORTS, runner + '-' + process.pid + '.seen'), '');
      } catch (e) { /* never fail the run */ }
    };
`;

/**
 * Which runner this process is. A runner started inside another runner's run (a test that spawns jest
 * or node --test on a fixture) is not the maintainer's call: the first observed runner process marks
 * the environment its descendants inherit (PROOFPR_OBSERVE_INSIDE=<runner>:<pid>), and a process under
 * that mark stays inert, except the runner's own re-exec: mocha's bin (marked `mocha-bin`) starting
 * lib/cli/cli.js (bin/_mocha before mocha 10) as its direct child when it is given node flags.
 */
const DISPATCH_PART = `    var INSIDE = 'PROOFPR_OBSERVE_INSIDE';
    var claim = function (name, reexecOf) {
      var mark = process.env[INSIDE];
      if (mark && !(reexecOf && mark === reexecOf + ':' + process.ppid)) return false;
      process.env[INSIDE] = name + ':' + process.pid;
      return true;
    };
    if (process.execArgv.some(function (a) { return a === '--test' || a.indexOf('--test=') === 0; })) {
      claim('node-test');
      return;
    }
    var main = process.argv[1];
    if (typeof main !== 'string' || main === '') return;
    var real = main;
    try { real = fs.realpathSync(main); } catch (e) { real = main; }
    real = real.split(path.sep).join('/');
    if (/\\/(jest|jest-cli)\\/bin\\/jest(\\.js)?$/.test(real)) { if (claim('jest')) hookJest(); }
    else if (/\\/vitest\\/vitest\\.mjs$/.test(real)) { if (claim('vitest')) amendVitest(); }
    else if (/\\/mocha\\/bin\\/mocha(\\.js)?$/.test(real)) { if (claim('mocha-bin')) hookMocha(); }
    else if (/\\/mocha\\/(bin\\/_mocha|lib\\/cli\\/cli\\.js)$/.test(real)) { if (claim('mocha', 'mocha-bin')) hookMocha(); }
    else if (/\\/jasmine\\/bin\\/jasmine(\\.js)?$/.test(real)) { if (claim('jasmine')) hookJasmine(); }
    else if (/\\/ava\\/(entrypoints\\/)?cli\\.m?js$/.test(real)) { if (claim('ava')) teeAva(); }
    else if (TAP_MAIN.test(real)) { if (claim('node-tap')) markSeen('node-tap'); }
    else if (PLAYWRIGHT_MAIN.test(real)) { if (claim('playwright')) markSeen('playwright'); }
    else if (/\\/uvu\\/bin\\.js$/.test(real)) { if (claim('uvu')) markSeen('uvu'); }
`;

export function nodePreloadSource(reports: string, select: string): string {
  return `'use strict';
// proofpr observer: inert unless this process is a test runner's own main process.
(function proofprObserve() {
  try {
    var REPORTS = ${JSON.stringify(reports)};
    var SELECT = ${JSON.stringify(select)};
    var fs = require('fs');
    var path = require('path');
    var Module = require('module');
    var wt = null;
    try { wt = require('worker_threads'); } catch (e) { wt = null; }
    if (wt && !wt.isMainThread) return;
    var MARK = '__proofprObserved';
    var count = 0;
    var reportPath = function (runner) {
      fs.mkdirSync(REPORTS, { recursive: true });
      count += 1;
      return path.join(REPORTS, runner + '-' + process.pid + '-' + count + '.report');
    };
    var write = function (runner, text) {
      try {
        var file = reportPath(runner);
        fs.writeFileSync(file + '.tmp', text);
        fs.renameSync(file + '.tmp', file);
      } catch (e) { /* never fail the run */ }
    };
    // Calls patch(exports, filename) when a request matching test resolves to a file matching file; a
    // defined return value replaces the exports for that one caller.
    var onLoad = function (test, file, patch) {
      var orig = Module._load;
      Module._load = function (request) {
        var exp = orig.apply(this, arguments);
        try {
          if (typeof request === 'string' && test.test(request)) {
            var filename = String(Module._resolveFilename.apply(Module, arguments)).split(path.sep).join('/');
            if (file.test(filename)) {
              var out = patch(exp, filename);
              if (out !== undefined) return out;
            }
          }
        } catch (e) { /* the runner's own exports */ }
        return exp;
      };
    };
    // A runner CLI's own arguments (before a '--') and where added ones go; null when its first word is a
    // subcommand in skip or an argument matches quit (help, version, watch): such a call is left alone.
    var runnerArgs = function (skip, quit) {
      var args = process.argv.slice(2);
      var end = args.indexOf('--');
      var own = end === -1 ? args : args.slice(0, end);
      var first = own.filter(function (a) { return a.charAt(0) !== '-'; })[0];
      if ((first && skip[first]) || own.some(function (a) { return quit.test(a); })) return null;
      return { own: own, at: end === -1 ? process.argv.length : end + 2 };
    };
    var jsonOf = function (value) {
      return JSON.stringify(value, function (k, v) {
        if (Object.prototype.toString.call(v) === '[object Error]') return { message: v.message, name: v.name, stack: v.stack };
        if (typeof v === 'bigint') return String(v) + 'n';
        return v;
      });
    };

${SELECT_PART}${JEST_PART}${VITEST_PART}${MOCHA_PART}${JASMINE_PART}${AVA_PART}${SEEN_PART}${DISPATCH_PART}
  } catch (e) { /* inert */ }
})();
`;
}

/**
 * A node:test reporter module (named with `--test-reporter=<file>` in NODE_OPTIONS): it runs node's
 * own junit reporter over the events and writes the result into a report file of its own per test
 * run, so two `node --test` calls in one command do not overwrite each other. It prints nothing (the
 * spec reporter named beside it keeps the output), and it always drains the event stream.
 */
export function nodeTestReporterSource(reports: string): string {
  return `// proofpr observer: node:test junit report, one file per test run.
import fs from 'node:fs';
import path from 'node:path';
const REPORTS = ${JSON.stringify(reports)};
let count = 0;
export default async function* proofprNodeTestReporter(source) {
  let junit;
  try { junit = (await import('node:test/reporters')).junit; } catch (e) { junit = undefined; }
  if (typeof junit !== 'function') {
    for await (const ev of source) void ev;
    return;
  }
  const mark = process.env.PROOFPR_OBSERVE_INSIDE;
  if (mark && mark !== 'node-test:' + process.pid) {
    // A node:test run inside another observed runner's run (a fixture): not the maintainer's call.
    for await (const ev of source) void ev;
    return;
  }
  let text = '';
  try {
    for await (const chunk of junit(source)) text += String(chunk);
  } catch (e) {
    return;
  }
  try {
    fs.mkdirSync(REPORTS, { recursive: true });
    count += 1;
    const file = path.join(REPORTS, 'node-test-' + process.pid + '-' + count + '.report');
    fs.writeFileSync(file + '.tmp', text);
    fs.renameSync(file + '.tmp', file);
  } catch (e) {
    // never fail the run
  }
}
`;
}
