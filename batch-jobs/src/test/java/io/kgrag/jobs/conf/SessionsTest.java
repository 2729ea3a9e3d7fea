package io.kgrag.jobs.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The {@code spark.sql.extensions} a kgrag session gets: the user's, then Delta's and kgrag's when missing. */
class SessionsTest {
  private static final String DELTA = "io.delta.sql.DeltaSparkSessionExtension";
  private static final String KGRAG = "io.kgrag.udfs.sql.KgragExtensions";

  @Test
  void deltaAndKgragExtensionsAreAddedToWhatTheUserSet() {
    assertEquals(DELTA + "," + KGRAG, Sessions.extensions(""));
    assertEquals("com.example.Ext," + DELTA + "," + KGRAG, Sessions.extensions(" com.example.Ext "));
    assertEquals(KGRAG + ",com.example.Ext," + DELTA, Sessions.extensions(KGRAG + ", com.example.Ext,," + DELTA), "none twice, the user's order kept");
  }
}
