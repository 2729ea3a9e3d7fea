package io.kgrag.udfs.sql;

import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * A Spark catalog whose tables SQL reads but never writes (kgrag's, whose jobs own them). The catalog refuses DDL and
 * the writes Spark announces to it; {@link KgragExtensions} refuses the others, a plan that appends to or overwrites
 * one of its tables ({@code INSERT INTO}, {@code DataFrameWriterV2}), with {@link #refusal}.
 */
public interface ReadOnlyCatalog extends CatalogPlugin {
  /** The error for a statement that would write {@code ident} of this catalog. */
  RuntimeException refusal(Identifier ident, String what);
}
