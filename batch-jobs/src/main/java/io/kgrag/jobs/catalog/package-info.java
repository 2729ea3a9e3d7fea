/**
 * kgrag's Delta tables under one warehouse root, registered as database {@code kgrag}: their names, schemas and
 * descriptions ({@link io.kgrag.jobs.catalog.KgTable}), atomic writes and consistent reads, snapshots pinned to the
 * last complete build ({@link io.kgrag.jobs.catalog.Catalog}), the graph read into memory ({@link
 * io.kgrag.jobs.catalog.GraphLoader}) or as Spark datasets ({@link io.kgrag.jobs.catalog.GraphFeatures}), and the
 * structs of the QA tables ({@link io.kgrag.jobs.catalog.QueryGraphRows}). API: methods and stages read and write
 * through it.
 */
package io.kgrag.jobs.catalog;
