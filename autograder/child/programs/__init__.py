"""Case programs: plain functions over the exercise API (`api`), standard library only."""
