/**
 * kgrag's settings: the Spark session every job runs in ({@link io.kgrag.jobs.conf.Sessions}), the shared keys under
 * {@code spark.kgrag.*} (warehouse, label embedder, LLM endpoint: {@link io.kgrag.jobs.conf.KgragConf}), and the one
 * binder of settings records from their keys ({@link io.kgrag.jobs.conf.OptionsBinder}) that each retrieval method
 * ({@code spark.kgrag.<method>.*}) and index stage ({@code spark.kgrag.gnn.*}, {@code spark.kgrag.stem.gnn.*},
 * {@code spark.kgrag.label-index.*}) reads its settings with.
 */
package io.kgrag.jobs.conf;
