/**
 * Model-written SQL made safe to run: one statement, parsed by Spark, read-only, reading only the tables allowed,
 * analysed before it runs ({@link io.kgrag.jobs.internal.sql.CheckedSql}, {@link io.kgrag.jobs.internal.sql.ReadOnlySql}),
 * and the warehouse's schema as a model sees it ({@link io.kgrag.jobs.internal.sql.CatalogSchema}). Used by SRAG and
 * {@code kgrag ask-sql}.
 */
package io.kgrag.jobs.internal.sql;
