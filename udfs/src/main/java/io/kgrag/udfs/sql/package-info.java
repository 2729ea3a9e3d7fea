/**
 * kgrag's SQL functions and Spark array helpers: {@link io.kgrag.udfs.sql.KgFunctions#register} makes core's id
 * and label functions callable by name in Spark SQL ({@code kg_entity_id}, {@code kg_label_key}, {@code
 * kg_normalize}, …), {@link io.kgrag.udfs.sql.KgragExtensions} injects the same functions into any session
 * started with it in {@code spark.sql.extensions}, and {@link io.kgrag.udfs.sql.SparkArrays} converts Spark array values to and from
 * primitive Java arrays. Used by batch-jobs' session setup and its index and QA stages.
 */
package io.kgrag.udfs.sql;
