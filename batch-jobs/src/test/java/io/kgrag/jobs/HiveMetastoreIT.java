package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.ReadmeTourIT.Step;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.ChildJvm;
import io.kgrag.jobs.catalog.KgragCommands;
import io.kgrag.jobs.catalog.PlainSparkSession;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kgrag's tables in a Hive-compatible metastore (docs/catalog.md, "A Hive metastore"): README's tour (index, qa,
 * eval) run in a JVM whose profile turns Hive support on, here with an embedded Derby metastore under a temporary
 * folder (on a cluster, the cluster's metastore), registers the tables there as the jobs write them; then a NEW JVM
 * with a plain Hive-enabled session, told nothing of kgrag but the metastore and Delta (no kgrag catalog), reads
 * {@code kgrag.answers}, {@code kgrag.evidence}, …: README's {@code kgrag sql} queries return what {@code kgrag sql}
 * returns for the same warehouse.
 */
class HiveMetastoreIT {
  @Test
  void tablesTheJobsRegisterInTheMetastoreAreSeenByAPlainHiveSessionInANewJvm() throws Exception {
    Path dir = SparkTestSession.newDir("hive-metastore");
    String warehouse = dir.resolve("warehouse").toString();
    Map<String, String> hive = new LinkedHashMap<>();
    hive.put("spark.sql.catalogImplementation", "hive");
    hive.put("spark.hadoop.javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + dir.resolve("metastore_db") + ";create=true");
    hive.put("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toString());
    Path profile = dir.resolve("hive.properties");
    List<String> lines = new ArrayList<>();
    hive.forEach((k, v) -> lines.add(k + "=" + v));
    Files.write(profile, lines, StandardCharsets.UTF_8);

    List<Step> tour = ReadmeTourIT.steps(DocsCommands.root().resolve("README.md"));
    List<String> jobs = new ArrayList<>();
    for (Step s : tour) {
      List<String> args = new ArrayList<>(ReadmeTourIT.args(s.command(), warehouse));
      if (!args.get(0).equals("sql")) {
        args.add("--conf-file");
        args.add(profile.toString());
        jobs.add(String.join("\t", args));
      }
    }
    Path commands = Files.write(dir.resolve("commands.tsv"), jobs, StandardCharsets.UTF_8);
    ChildJvm.run(dir, KgragCommands.class.getName(), List.of(commands.toString()));
    assertTrue(Files.isDirectory(dir.resolve("metastore_db")), "the jobs' Hive session made no metastore under " + dir);

    List<String> queries = new ArrayList<>(ReadmeTourIT.sqlQueries(tour));
    List<String> statements = new ArrayList<>(queries);
    statements.add("SHOW TABLES IN kgrag");
    Map<String, String> plain = new LinkedHashMap<>(hive);
    plain.put("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension");
    plain.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    List<List<String>> got = PlainSparkSession.query(dir.resolve("plain"), statements, plain);
    assertEquals(statements.size(), got.size(), "one result per statement");

    String root = new Catalog(SparkTestSession.get(), warehouse).root();
    for (int i = 0; i < queries.size(); i++) {
      Cli sql = Cli.run("sql", "--warehouse", root, "--format", "json", "--limit", "0", queries.get(i));
      assertEquals(0, sql.code, queries.get(i) + "\n" + sql);
      List<String> want = new ArrayList<>(sql.out.lines().toList());
      List<String> have = new ArrayList<>(got.get(i));
      assertFalse(want.isEmpty(), "a query that finds nothing checks nothing: " + queries.get(i));
      want.sort(null);
      have.sort(null);
      assertEquals(want, have, queries.get(i));
    }
    String tables = String.join("\n", got.get(queries.size()));
    for (String t : List.of("entities", "relations", "questions", "answers", "evidence", "metrics", "runs")) {
      assertTrue(tables.contains("\"tableName\":\"" + t + "\""), t + " is not in the metastore: " + tables);
    }
  }
}
