pub mod theorems;
