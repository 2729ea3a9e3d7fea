/**
 * kgrag's Delta tables under one warehouse root, registered as database {@code kgrag}: their names, schemas and
 * descriptions ({@link io.kgrag.jobs.catalog.KgTable}), atomic writes and consistent reads, snapshots pinned to the
 * last complete build ({@link io.kgrag.jobs.catalog.Catalog}), the graph read into memory ({@link
 * io.kgrag.jobs.catalog.GraphLoader}) or as Spark datasets ({@link io.kgrag.jobs.catalog.GraphFeatures}), and the
 * structs of the QA tables ({@link io.kgrag.jobs.catalog.QueryGraphRows}). API: methods and stages read and write
 * through it. {@link io.kgrag.jobs.catalog.KgragCatalog} shows a warehouse's tables as catalog {@code kgrag} to any
 * Spark session, read-only (docs/catalog.md).
 */
package io.kgrag.jobs.catalog;
