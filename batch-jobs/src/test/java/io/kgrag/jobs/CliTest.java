package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CliTest {
  @Test
  void helpListsCommandsAndOptions() {
    Cli top = Cli.run("--help");
    assertEquals(0, top.code);
    assertTrue(top.out.contains("index") && top.out.contains("demo"), top.out);
    Cli index = Cli.run("index", "--help");
    assertEquals(0, index.code);
    for (String opt : new String[] {"--input", "--format", "--names", "--append", "--stages", "--skip", "--warehouse", "--conf-file", "--embedder"}) {
      assertTrue(index.out.contains(opt), opt + " missing from: " + index.out);
    }
  }

  @Test
  void badOptionsFailWithExitCode2() {
    assertEquals(2, Cli.run("no-such-command").code);
    assertEquals(2, Cli.run("index", "--no-such-option").code);
    assertEquals(2, Cli.run().code);
    Cli noInput = Cli.run("index", "--stages", "ingest");
    assertEquals(2, noInput.code);
    assertTrue(noInput.err.contains("needs --input"), noInput.err);
    Cli stage = Cli.run("index", "--stages", "ingest,frobnicate", "--input", "x");
    assertEquals(2, stage.code);
    assertTrue(stage.err.contains("unknown stage 'frobnicate'"), stage.err);
    Cli embedder = Cli.run("index", "--stages", "embed", "--embedder", "word2vec", "--warehouse", SparkTestSession.newDir("e").toString());
    assertEquals(2, embedder.code);
    assertTrue(embedder.err.contains("unknown embedder 'word2vec'"), embedder.err);
    Cli conf = Cli.run("index", "--stages", "embed", "--conf-file", "/nonexistent.properties");
    assertEquals(2, conf.code);
    assertTrue(conf.err.contains("configuration file not found"), conf.err);
  }

  @Test
  void syncIsRefusedWhereItCannotApplyBeforeAnythingRuns() {
    String wh = SparkTestSession.newDir("sync").toString();
    Cli triples = Cli.run("reindex", "--input", "t.tsv", "--warehouse", wh, "--sync");
    assertEquals(2, triples.code, triples.toString());
    assertTrue(triples.err.contains("--sync is for document corpora"), triples.err);
    Cli noInput = Cli.run("reindex", "--warehouse", wh, "--sync");
    assertEquals(2, noInput.code, noInput.toString());
    assertTrue(noInput.err.contains("--sync needs --input"), noInput.err);
    Cli noIngest = Cli.run("reindex", "--input", "c.jsonl", "--format", "jsonl", "--stages", "embed", "--warehouse", wh, "--sync");
    assertEquals(2, noIngest.code, noIngest.toString());
    assertTrue(noIngest.err.contains("stage ingest is not selected"), noIngest.err);
    assertTrue(java.nio.file.Files.notExists(java.nio.file.Path.of(wh, "runs")), "nothing written under " + wh);
  }

  @Test
  void embedWithoutAGraphSaysWhatToRunFirst() {
    Cli r = Cli.run("index", "--stages", "embed", "--warehouse", SparkTestSession.newDir("empty").toString());
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("kgrag.entities does not exist"), r.err);
  }
}
