package io.kgrag.jobs.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kgrag.jobs.SparkTestSession;
import org.junit.jupiter.api.Test;

/**
 * Every table kgrag declares can be created in Delta with exactly its declared schema. One Delta table after another
 * (about 20 s on 2 cores), so it runs in the integration tier; the fast tier's jobs create the tables they write.
 */
class TableSchemasIT {
  @Test
  void everyTableCanBeCreatedWithItsDeclaredSchema() {
    Catalog c = new Catalog(SparkTestSession.get(), SparkTestSession.newDir("all-tables").toString());
    for (KgTable t : KgTable.values()) {
      c.ensure(t); // Delta refuses some schemas (e.g. NOT NULL fields of structs inside arrays)
      assertEquals(t.schema(), c.read(t).schema(), t.name());
    }
  }
}
